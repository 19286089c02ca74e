/**
 * A companion started on a state directory of codex-devtools 0.1.0 listens first, forwards Codex's
 * requests while it moves the old history into its database, says how many exchanges it moved,
 * and then serves them all, the new ones beside them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../companion/lib/log';
import { ANALYSIS_VERSION } from '../../companion/protocol/analysis';
import { loadPrices } from '../../companion/store/prices-file';
import type { ExchangeRecord } from '../../companion/protocol/exchange';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion, tempHome, type TestCompanion } from '../support/companion';
import { rawRequest } from '../support/http';
import { fakeKey } from '../support/keys';
import { message, response } from '../support/sse';

const FIXTURE = path.resolve('tests/fixtures/store-0.1.0');
const expected = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'expected.json'), 'utf8')) as ExchangeRecord[];

describe('a 0.1.0 state directory', () => {
  let upstream: FakeUpstream | null = null;
  let c: TestCompanion | null = null;
  afterEach(async () => {
    await c?.dispose();
    await upstream?.close();
    c = upstream = null;
  });

  it('is migrated after the companion listens, with a line saying how many, and nothing is lost', async () => {
    const home = tempHome('codex-devtools-migrate-');
    fs.cpSync(path.join(FIXTURE, 'home'), home, { recursive: true });
    upstream = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('after the upgrade')]) }) });
    const lines: string[] = [];
    c = await startTestCompanion({ home, apiUpstream: upstream.baseUrl, logger: createLogger('info', (l) => lines.push(l)) });
    const res = await rawRequest(`${c.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fakeKey('proj-migrate-abcdefghijkl')}`, 'content-type': 'application/json' },
      body: '{"model":"gpt-5-codex","input":[]}',
    });
    expect(res.status).toBe(200);
    await c.idle();
    expect(lines).toContainEqual(expect.stringContaining(`migrated ${expected.length} exchanges from the 0.1.0 format`));
    const { items } = await c.store.list({ limit: 1000 });
    expect(items).toHaveLength(expected.length + 1);
    expect(items[0].preview).toBe('after the upgrade');
    // Their analyses, of an older analysis version and a table without one, are recomputed: the same
    // figures and English, now of the current version, naming the table in force, with the codes the
    // panel translates beside the English (tests/unit/analysis/texts.test.ts checks those).
    const pricesVersion = (await loadPrices(home)).version;
    for (const r of expected) {
      const got = (await c.store.get(r.id))!;
      expect(got.analysis).toMatchObject({ ...r.analysis, version: ANALYSIS_VERSION, pricesVersion });
      expect(got.cache).toMatchObject(r.cache!);
      expect({ ...got, analysis: null, cache: null }).toEqual({ ...r, analysis: null, cache: null });
    }
    // The old files go once everything is in the database.
    expect(fs.existsSync(path.join(home, 'sessions', expected[0].sessionId!, 'log.jsonl'))).toBe(false);
  });
});
