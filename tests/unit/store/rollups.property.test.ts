import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../companion/lib/log';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import type { UsageRollup } from '../../../companion/protocol/analysis';
import { Store } from '../../../companion/store/store';
import { createReports } from '../../../companion/reports';
import { startOfToday } from '../../../companion/store/sqlite/time-zone';
import { tempHomes } from '../../support/companion';
import { codexSession, stepRecord } from '../../support/session';
import { buildRecords, exchangeSpec, Oracle } from '../../support/store-oracle';
import { storesClosedAfterEach } from '../../support/stores';

const log = createLogger('silent');
const homes = tempHomes('codex-devtools-rollups-');
const closeAfter = storesClosedAfterEach();
let template: ExchangeRecord;
beforeAll(async () => {
  template = await stepRecord(codexSession(1)[0]);
});

/** Zones at whole, half and three-quarter hour offsets, and one with daylight saving time. */
const ZONES = ['UTC', 'Asia/Kathmandu', 'America/St_Johns', 'Pacific/Chatham', 'America/New_York'];

/** What can change history under the roll-ups after the exchanges were written. */
const event = fc.oneof(
  fc.record({ t: fc.constant('identify' as const), at: fc.nat(), nickname: fc.constantFrom('Plato', 'Hume') }),
  fc.record({
    t: fc.constant('reprice' as const),
    at: fc.nat(),
    cost: fc.option(
      fc.integer({ min: 0, max: 4096 }).map((k) => k / 1024),
      { nil: null },
    ),
    miss: fc.boolean(),
  }),
  fc.record({ t: fc.constant('delete' as const), session: fc.constantFrom('s-a', 's-b', null) }),
  fc.record({ t: fc.constant('prune' as const) }),
  fc.record({ t: fc.constant('append' as const), spec: exchangeSpec }),
);

/** A roll-up's sums as the store reports them, for comparison with the in-memory one. */
const sums = (r: UsageRollup) => ({ ...r });

describe('roll-ups kept by triggers, against sums over the stored summaries (property)', () => {
  it('stay the sums of what is stored through identification, repricing, deletion and pruning', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(exchangeSpec, { minLength: 1, maxLength: 20 }),
        fc.array(event, { maxLength: 8 }),
        fc.constantFrom(...ZONES),
        async (specs, events, zone) => {
          const store = closeAfter(Store.open({ home: homes(), log }));
          const oracle = new Oracle();
          for (const r of buildRecords(template, specs)) {
            await store.append(r);
            oracle.add(r);
          }
          for (const e of events) {
            const ids = [...oracle.summaries.keys()];
            if (e.t === 'identify' && ids.length) {
              // A sub-agent told apart later: its role (and with it what Codex counts) changes.
              const id = ids[e.at % ids.length];
              const patch = { agent: { role: 'subagent' as const, name: 'worker', nickname: e.nickname }, codexCounted: false };
              await store.update(id, patch);
              oracle.patch(id, patch);
            } else if (e.t === 'reprice' && ids.length) {
              const id = ids[e.at % ids.length];
              const prev = oracle.summaries.get(id)!;
              const cache = {
                ...(prev.cache ?? {
                  verdict: null,
                  why: null,
                  whyCode: null,
                  hitRate: null,
                  reasons: [],
                  expectedCachedTokens: null,
                  missedTokens: null,
                }),
                miss: e.miss,
                verdict: e.miss ? ('miss' as const) : ('hit' as const),
                missCostUsd: e.miss ? e.cost : null,
              };
              const patch = { costUsd: e.cost, cache };
              await store.attachAnalysis(id, { version: 2 } as never, patch);
              oracle.patch(id, patch);
            } else if (e.t === 'delete') {
              await store.deleteSession(e.session ?? '');
              oracle.dropSession(e.session);
            } else if (e.t === 'prune') {
              store.maxBytes = 1;
              store.pruneIfNeeded();
              store.maxBytes = Number.MAX_SAFE_INTEGER;
              oracle.keepOnly(new Set([...store.summaries()].map((s) => s.id)));
            } else if (e.t === 'append') {
              const [r] = buildRecords(template, [e.spec]);
              await store.append(r);
              oracle.add(r);
            }
          }
          // The summaries themselves: what the oracle expects stored.
          expect(new Map([...store.summaries()].map((s) => [s.id, s]))).toEqual(oracle.summaries);
          // Totals, per thread and per model.
          const totals = store.totals({});
          expect(totals.all).toMatchObject(sums(oracle.rollup(() => true)));
          for (const t of totals.byThread) expect(t).toMatchObject(sums(oracle.rollup((s) => s.threadId === t.threadId)));
          // Per day in the zone.
          const days = oracle.days(zone);
          const daily = store.daily({ timeZone: zone });
          expect(daily.map((d) => d.day).sort()).toEqual([...days.keys()].sort());
          for (const d of daily) expect(d).toMatchObject(sums(oracle.rollup((s) => days.get(d.day)!.includes(s))));
          // Sessions: counts, times, totals, cache misses and their cost, title.
          const page = store.sessions({ limit: 500 });
          const sessions = new Set([...oracle.summaries.values()].map((s) => s.sessionId));
          expect(page.stored).toBe(sessions.size);
          for (const row of page.items) {
            const mine = [...oracle.summaries.values()].filter((s) => s.sessionId === row.sessionId);
            expect(row.rows).toBe(mine.length);
            expect(row.startedAt).toBe(Math.min(...mine.map((s) => s.startedAt)));
            expect(row.endedAt).toBe(Math.max(...mine.map((s) => s.endedAt ?? s.startedAt)));
            expect(row).toMatchObject(sums(oracle.rollup((s) => s.sessionId === row.sessionId)));
            expect(row.cacheMisses).toBe(mine.filter((s) => s.cache?.miss).length);
            expect(row.missCostUsd).toBe(mine.reduce((n, s) => n + (s.cache?.miss ? (s.cache.missCostUsd ?? 0) : 0), 0));
            expect({ title: row.title, cwd: row.cwd }).toEqual(oracle.sessionContext(row.sessionId));
          }
          // The live counters: today in the zone (from the latest start) and the latest model exchange's session.
          const all = [...oracle.summaries.values()];
          const now = Math.max(0, ...all.map((s) => s.startedAt)) + 1;
          const live = createReports(store, zone).live(now);
          const midnight = startOfToday(now, zone);
          expect(live.today).toEqual(oracle.rollup((s) => s.startedAt >= midnight));
          const latest = store.list({ kind: 'model', limit: 50 }).items.find((s) => s.sessionId)?.sessionId ?? null;
          expect(live.session).toEqual(latest === null ? null : { sessionId: latest, usage: oracle.rollup((s) => s.sessionId === latest) });
          store.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('the live counters from the roll-ups', () => {
  it("count an exchange started at local midnight as today's, and one a millisecond earlier as yesterday's", async () => {
    const store = closeAfter(Store.open({ home: homes(), log }));
    const midnight = Date.UTC(2026, 10, 30) + 5 * 3_600_000; // midnight in New York (UTC−5 in November)
    const specs = fc.sample(exchangeSpec, { seed: 7, numRuns: 2 }).map((s, i) => ({
      ...s,
      kind: 'model' as const,
      status: 'completed' as const,
      session: 's-a' as const,
      usage: { input: 1000 * (i + 1), cachedPart: 0, output: 10 },
      startedAt: midnight - 1 + i,
    }));
    for (const r of buildRecords(template, specs)) await store.append(r);
    const live = createReports(store, 'America/New_York').live(midnight + 3_600_000);
    expect(live.today.exchanges).toBe(1);
    expect(live.today.inputTokens).toBe(2000);
    expect(live.session?.usage.inputTokens).toBe(3000);
  });
});
