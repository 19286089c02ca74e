import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DailyResponseSchema, ExchangeListResponseSchema, SessionPageSchema, TopExchangesResponseSchema } from '../../companion/protocol';
import type { ExchangeRecord } from '../../companion/protocol/exchange';
import { Store } from '../../companion/store/store';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { rawRequest } from '../support/http';
import { codexSession, stepRecord } from '../support/session';

/** Six exchanges of one session on two days (UTC), with costs and two cache misses. */
async function history(): Promise<ExchangeRecord[]> {
  const out: ExchangeRecord[] = [];
  for (const [i, step] of codexSession(6).entries()) {
    const r = await stepRecord(step);
    const startedAt = Date.UTC(2026, 10, 30, 22) + i * 3_600_000;
    const miss = i === 2 || i === 4;
    out.push({
      ...r,
      startedAt,
      endedAt: startedAt + 1000,
      costUsd: (i + 1) / 8,
      cache: {
        verdict: miss ? 'miss' : 'hit',
        why: null,
        whyCode: null,
        hitRate: null,
        miss,
        reasons: [],
        expectedCachedTokens: null,
        missedTokens: null,
        missCostUsd: miss ? i / 16 : null,
      },
    });
  }
  return out;
}

describe('the history API over the SQLite store', () => {
  let c: TestCompanion;
  let records: ExchangeRecord[];
  const get = async (path: string) => {
    const res = await rawRequest(`${c.url}/api${path}`, { headers: { authorization: `Bearer ${c.token()}` } });
    return { status: res.status, body: JSON.parse(res.body.toString()) as unknown };
  };

  beforeAll(async () => {
    c = await startTestCompanion();
    records = await history();
    for (const r of records) await c.store.append(r);
  });
  afterAll(async () => {
    await c.dispose();
  });

  it('exports what the list query selects (filter and search), oldest first, in each format', async () => {
    const raw = async (p: string) =>
      (await rawRequest(`${c.url}/api${p}`, { headers: { authorization: `Bearer ${c.token()}` } })).body.toString();
    const ids = (jsonl: string) =>
      jsonl
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as ExchangeRecord).id);
    const byStart = [...records].sort((a, b) => a.startedAt - b.startedAt).map((r) => r.id);
    expect(ids(await raw('/export?format=jsonl'))).toEqual(byStart);
    const misses = records.filter((r) => r.cache?.miss).map((r) => r.id);
    expect(ids(await raw('/export?format=jsonl&miss=1'))).toEqual(byStart.filter((id) => misses.includes(id)));
    const costly = records.filter((r) => (r.costUsd ?? 0) >= 0.5).map((r) => r.id);
    expect(ids(await raw('/export?format=jsonl&minCost=0.5'))).toEqual(byStart.filter((id) => costly.includes(id)));
    // A word of one exchange's answer: the search the panel would send.
    const all = ExchangeListResponseSchema.parse((await get('/exchanges?limit=100')).body).items;
    const word = encodeURIComponent(all.find((s) => (s.preview ?? '').length > 12)!.preview!.slice(2, 10));
    const listed = ExchangeListResponseSchema.parse((await get(`/exchanges?q=${word}&limit=100`)).body).items.map((s) => s.id);
    expect(listed.length).toBeGreaterThan(0);
    expect(ids(await raw(`/export?format=jsonl&q=${word}`))).toEqual(byStart.filter((id) => listed.includes(id)));
    expect(ids(await raw(`/export?format=jsonl&q=${word}&minCost=0.5`))).toEqual(
      byStart.filter((id) => listed.includes(id) && costly.includes(id)),
    );
    expect(ids(await raw('/export?format=jsonl&q=zqxjv-not-in-any-text'))).toEqual([]);
    const har = JSON.parse(await raw('/export?format=har&miss=1')) as { log: { entries: unknown[] } };
    expect(har.log.entries).toHaveLength(misses.length);
  });

  it('sorts, filters and pages `GET /api/exchanges` by cursor, saying how many of how many match', async () => {
    const first = ExchangeListResponseSchema.parse((await get('/exchanges?sort=cost&limit=4&minCost=0.3')).body);
    expect(first.items.map((s) => s.costUsd)).toEqual([0.75, 0.625, 0.5, 0.375]);
    expect(first).toMatchObject({ matched: 4, stored: 6, nextCursor: null });
    const asc = ExchangeListResponseSchema.parse((await get('/exchanges?sort=cost&order=asc&limit=2')).body);
    expect(asc.items.map((s) => s.costUsd)).toEqual([0.125, 0.25]);
    const next = ExchangeListResponseSchema.parse((await get(`/exchanges?sort=cost&order=asc&limit=2&cursor=${asc.nextCursor}`)).body);
    expect(next.items.map((s) => s.costUsd)).toEqual([0.375, 0.5]);
    // The 0.1.0 parameters still work as they did.
    const old = ExchangeListResponseSchema.parse((await get('/exchanges?limit=2')).body);
    expect(old.items.map((s) => s.id)).toEqual([records[5].id, records[4].id]);
    expect(old.nextBefore).toBe(records[4].id);
    // Full-text search reaches a tool call's arguments.
    const found = ExchangeListResponseSchema.parse((await get('/exchanges?q=src%2Ffile3')).body);
    expect(found.items.map((s) => s.id)).toEqual([records[3].id]);
    expect((await get('/exchanges?cursor=garbage')).status).toBe(400);
    expect((await get('/exchanges?sort=nonsense')).status).toBe(400);
  });

  it('pages sessions with `limit`', async () => {
    const page = SessionPageSchema.parse((await get('/sessions?limit=10')).body);
    expect(page).toMatchObject({ matched: 1, stored: 1, nextCursor: null });
    expect(page.items[0]).toMatchObject({ sessionId: records[0].sessionId, rows: 6, cacheMisses: 2, missCostUsd: 2 / 16 + 4 / 16 });
    expect(page.items[0].costUsd).toBeCloseTo(21 / 8, 12);
    expect(SessionPageSchema.parse((await get('/sessions?q=no%20such%20text')).body).items).toEqual([]);
  });

  it('pages sessions without parameters too, 50 a page, never reading every stored summary', async () => {
    // The store runs in this thread in tests, so its prototype's readers of every summary can be watched.
    const readAll = vi.spyOn(Store.prototype, 'summariesPage');
    const res = await get('/sessions');
    expect(readAll).not.toHaveBeenCalled();
    const page = SessionPageSchema.parse(res.body);
    expect(page).toMatchObject({ matched: 1, stored: 1, nextCursor: null, items: [{ sessionId: records[0].sessionId, rows: 6 }] });
    expect(SessionPageSchema.parse((await get('/sessions?limit=10')).body)).toEqual(page);
    expect((await get('/sessions?cursor=garbage')).status).toBe(400);
  });

  it('answers the costliest exchanges and cache misses for a day in the asked time zone, or everything', async () => {
    const all = TopExchangesResponseSchema.parse((await get('/reports/expensive?limit=2')).body);
    expect(all.items.map((s) => s.id)).toEqual([records[5].id, records[4].id]);
    // 2026-11-30 in UTC holds the exchanges of 22:00 and 23:00 only.
    const day = TopExchangesResponseSchema.parse((await get('/reports/expensive?day=2026-11-30&tz=UTC')).body);
    expect(day.items.map((s) => s.id)).toEqual([records[1].id, records[0].id]);
    const misses = TopExchangesResponseSchema.parse((await get(`/reports/cache-misses?session=${records[0].sessionId}`)).body);
    expect(misses.items.map((s) => s.id)).toEqual([records[4].id, records[2].id]);
    expect((await get('/reports/expensive?tz=Mars/Olympus')).status).toBe(400);
  });

  it('sums usage per local day from the roll-ups, in any IANA zone', async () => {
    const utc = DailyResponseSchema.parse((await get('/usage/daily?tz=UTC')).body);
    expect(utc.days.map((d) => [d.day, d.exchanges])).toEqual([
      ['2026-11-30', 2],
      ['2026-12-01', 4],
    ]);
    // Kathmandu is UTC+5:45: every exchange (22:00 to 03:00 UTC) falls on 1 December there.
    const ktm = DailyResponseSchema.parse((await get('/usage/daily?tz=Asia/Kathmandu')).body);
    expect(ktm.days.map((d) => [d.day, d.exchanges])).toEqual([['2026-12-01', 6]]);
    expect(ktm.days[0].costUsd).toBeCloseTo(21 / 8, 12);
  });
});
