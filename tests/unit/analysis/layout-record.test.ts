import { describe, expect, it } from 'vitest';
import { requestLayout, withLayout } from '../../../companion/analysis/layout';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { recordOf } from '../../support/records';

describe('withLayout', () => {
  it('adds the layout of a model request’s body to its record', async () => {
    const record = await recordOf('fallback-text-1.json');
    expect(record.kind).toBe('model');
    const served = withLayout(record);
    expect(served).toEqual({ ...record, layout: requestLayout(record.request.body) });
    expect(served.layout!.entries.at(-1)!.label).toBe('user: say hello');
  });

  it('gives no layout to a record without a body, or that is not a model request', async () => {
    const record = await recordOf('fallback-text-1.json');
    const bodiless = { ...record, request: { ...record.request, body: null } } as ExchangeRecord;
    expect(withLayout(bodiless)).toEqual({ ...bodiless, layout: null });
    const other = { ...record, kind: 'other' } as unknown as ExchangeRecord;
    expect(withLayout(other)).toEqual({ ...other, layout: null });
  });
});
