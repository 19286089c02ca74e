import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requestLayout } from '../../../companion/analysis/layout';
import { RequestLayoutSchema } from '../../../companion/protocol/layout';
import { LAYOUT_CASES, entrySnapshot, snapshotFile, toolSnapshot } from '../../support/layout-snapshot';

describe('the request layout the companion serves', () => {
  it.each(Object.keys(LAYOUT_CASES))('shows what the panel showed for the %s request', (name) => {
    const layout = RequestLayoutSchema.parse(requestLayout(LAYOUT_CASES[name]()));
    const expected = JSON.parse(fs.readFileSync(snapshotFile(name), 'utf8'));
    expect(layout.tools.map(toolSnapshot)).toEqual(expected.tools);
    expect(layout.entries.map(entrySnapshot)).toEqual(expected.entries);
  });
});
