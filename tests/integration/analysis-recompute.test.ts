/**
 * Stored analyses follow the analysis version and the price table: an edited prices.json reprices
 * the history while the companion runs, an analysis of an older version is recomputed at start-up,
 * and analyses of the versions in force are left alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion, tempHomes, type TestCompanion } from '../support/companion';
import { rawRequest } from '../support/http';
import { openFeed } from '../support/live-client';
import { fakeKey } from '../support/keys';
import {
  ANALYSIS_VERSION,
  DailyResponseSchema,
  ExchangeRecordSchema,
  SessionPageSchema,
  StatusResponseSchema,
  type ExchangeRecord,
  type ExchangeSummary,
} from '../../companion/protocol';
import { loadPrices } from '../../companion/store/prices-file';

const dir = path.resolve('tests/fixtures/unelided');
const load = (name: string) => JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8'));
const FIXTURES = [load('fallback-tool-call-1'), load('fallback-tool-call-2')];
/** 1 USD per 1M tokens of every kind: a cost is then (input + output) / 1e6. */
const ONE_DOLLAR = { inputPer1M: 1, cachedInputPer1M: 1, cacheWritePer1M: 1, outputPer1M: 1 };
const overrides = (rates: typeof ONE_DOLLAR) =>
  JSON.stringify({ rows: [{ model: 'gpt-5-codex', tier: 'default', rates, source: 'my invoice', asOf: '2026-12-01' }] });

/** Resolves once `check` returns a value other than undefined (the background work is done). */
async function eventually<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('stored analyses follow the analysis version and the price table', () => {
  let upstream: FakeUpstream;
  const homes = tempHomes();

  beforeAll(async () => {
    upstream = await startFakeUpstream({
      scenario: (req) => {
        const f = FIXTURES.find((x) => x.request.body.input.length === req.body.input.length)!;
        return { kind: 'sse', events: structuredClone(f.response_sent_by_fake_upstream.sse_events) };
      },
    });
  });
  afterAll(async () => {
    await upstream.close();
  });

  const api = async (c: TestCompanion, p: string) =>
    JSON.parse((await rawRequest(`${c.url}/api${p}`, { headers: { authorization: `Bearer ${c.token()}` } })).body.toString());
  const send = (c: TestCompanion, f: any) => {
    const { 'content-length': _l, host: _h, ...headers } = f.request.headers;
    return rawRequest(`${c.url}/v1/responses`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${fakeKey('test-recompute-0123456789')}` },
      body: JSON.stringify(f.request.body),
    });
  };
  /** A companion in `home` that captured both fixture exchanges (oldest first). */
  const captured = async (home: string) => {
    const c = await startTestCompanion({ apiUpstream: upstream.baseUrl, home });
    for (const f of FIXTURES) await send(c, f);
    await c.idle();
    const items: ExchangeSummary[] = (await api(c, '/exchanges')).items;
    return { c, ids: items.map((s) => s.id).reverse() };
  };
  const record = async (c: TestCompanion, id: string): Promise<ExchangeRecord> =>
    ExchangeRecordSchema.parse(await api(c, `/exchanges/${id}`));
  const atOneDollar = (r: ExchangeRecord) => (r.usage!.inputTokens! + r.usage!.outputTokens!) / 1e6;

  it('reprices stored exchanges, their analyses and the daily and session roll-ups when prices.json is edited', async () => {
    const home = homes();
    const { c, ids } = await captured(home);
    try {
      const builtIn = await Promise.all(ids.map((id) => record(c, id)));
      const builtInVersion = (await loadPrices(home)).version;
      expect(builtIn.every((r) => r.analysis!.pricesVersion === builtInVersion)).toBe(true);
      const feed = await openFeed(c.url, { token: c.token() });
      await feed.waitFor('feed/snapshot');

      fs.writeFileSync(path.join(home, 'prices.json'), overrides(ONE_DOLLAR));
      const version = (await loadPrices(home)).version;
      const repriced = await eventually(async () => {
        const rs = await Promise.all(ids.map((id) => record(c, id)));
        return rs.every((r) => r.analysis!.pricesVersion === version) ? rs : undefined;
      });

      const total = repriced.reduce((a, r) => a + atOneDollar(r), 0);
      expect(total).not.toBeCloseTo(
        builtIn.reduce((a, r) => a + r.costUsd!, 0),
        9,
      );
      for (const r of repriced) {
        expect(r.analysis!.costUsd).toBeCloseTo(atOneDollar(r), 12);
        expect(r.analysis!.cost?.source).toBe('my invoice');
        expect(r.costUsd).toBe(r.analysis!.costUsd);
      }
      const summaries: ExchangeSummary[] = (await api(c, '/exchanges')).items;
      for (const s of summaries) expect(s.costUsd).toBe(repriced.find((r) => r.id === s.id)!.costUsd);
      const days = DailyResponseSchema.parse(await api(c, '/usage/daily?tz=UTC')).days;
      expect(days.reduce((a, d) => a + (d.costUsd ?? 0), 0)).toBeCloseTo(total, 12);
      const sessions = SessionPageSchema.parse(await api(c, '/sessions?limit=10')).items;
      expect(sessions.reduce((a, s) => a + (s.costUsd ?? 0), 0)).toBeCloseTo(total, 12);

      // The live feed says so: each changed summary, then the usage with the new totals.
      for (const r of repriced) await feed.waitFor('exchange/updated', (m) => m.exchange.id === r.id && m.exchange.costUsd === r.costUsd);
      const usage = await feed.waitFor('usage/updated');
      expect(usage.usage.today.costUsd).toBeCloseTo(total, 12);
      feed.close();
    } finally {
      await c.dispose();
    }
  });

  it('keeps the prices in force and reports the error when prices.json is edited into something broken', async () => {
    const home = homes();
    fs.writeFileSync(path.join(home, 'prices.json'), overrides(ONE_DOLLAR));
    const { c, ids } = await captured(home);
    try {
      const version = (await loadPrices(home)).version;
      fs.writeFileSync(path.join(home, 'prices.json'), '{"rows": [{"model": 5}]}');
      const status = await eventually(async () => {
        const s = StatusResponseSchema.parse(await api(c, '/status'));
        return s.priceErrors.length ? s : undefined;
      });
      expect(status.priceErrors[0]).toContain('prices.json');
      for (const id of ids) {
        const r = await record(c, id);
        expect(r.analysis!.pricesVersion).toBe(version);
        expect(r.costUsd).toBeCloseTo(atOneDollar(r), 12);
      }
    } finally {
      await c.dispose();
    }
  });

  it('recomputes at start-up an analysis of an older version, and leaves one of the versions in force alone', async () => {
    const home = homes();
    const first = await captured(home);
    const [old, current] = first.ids;
    const stored = await record(first.c, current);
    // An analysis of an earlier release, without a verdict; and one of this release's versions whose
    // cost no rule would give, so that a recompute of it would show.
    await first.c.store.attachAnalysis(
      old,
      { ...stored.analysis!, version: ANALYSIS_VERSION - 1, costUsd: 77 },
      { costUsd: 77, cache: null },
    );
    await first.c.store.attachAnalysis(current, { ...stored.analysis!, costUsd: 99 }, { costUsd: 99 });
    await first.c.idle();
    await first.c.close();

    const c = await startTestCompanion({ apiUpstream: upstream.baseUrl, home });
    try {
      const recomputed = await eventually(async () => {
        const r = await record(c, old);
        return r.analysis!.version === ANALYSIS_VERSION ? r : undefined;
      });
      expect(recomputed.costUsd).not.toBe(77);
      expect(recomputed.costUsd).toBe(recomputed.analysis!.costUsd);
      expect(recomputed.cache?.verdict).toBe('cold');
      const days = DailyResponseSchema.parse(await api(c, '/usage/daily?tz=UTC')).days;
      expect(days.reduce((a, d) => a + (d.costUsd ?? 0), 0)).toBeCloseTo(99 + recomputed.costUsd!, 9);
      const untouched = await record(c, current);
      expect(untouched.analysis!.costUsd).toBe(99);
      expect(untouched.costUsd).toBe(99);
    } finally {
      await c.dispose();
    }
  });
});
