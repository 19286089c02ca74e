/**
 * @module Glue between the store and the analysis roll-ups for `/api/usage`, `/api/sessions/:id/report` and
 * the live feed's counters: this selects the summaries; the analysis stage does the sums.
 */
import { buildSessionThreads, rollupUsage, sessionCacheReport, usageByThread, usageByTurn, usageReport } from './analysis';
import type { Reports, UsageQuery } from './context';
import type { UsageResponse, SessionReport } from './protocol/api';
import type { ExchangeSummary } from './protocol/exchange';
import type { LiveUsage } from './protocol/live';
import type { Store } from './store/store';
import type { RollupTotals } from './store/sqlite/measures';
import { startOfToday } from './store/sqlite/time-zone';
import type { UsageRollup } from './protocol/analysis';
import { localTimeZone } from './lib/local-zone';

/**
 * The summaries a query selects, oldest first, filtered by the store and read a page at a time:
 * the live counters are recomputed after every model exchange, and a months-long history must
 * not be read whole for them.
 */
function select(store: Store, q: UsageQuery): ExchangeSummary[] {
  const out: ExchangeSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = store.list({ session: q.session, since: q.since, until: q.until, limit: 1000, cursor });
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out.reverse();
}

/** The usage part of roll-up totals (the live counters carry no cache-miss sums). */
function usageOnly({ cacheMisses: _m, missCostUsd: _c, ...usage }: RollupTotals): UsageRollup {
  return usage;
}

/** One session's report from its model exchanges, oldest first. */
function sessionReport(sessionId: string | null, list: ExchangeSummary[]): SessionReport {
  return {
    sessionId,
    startedAt: list[0].startedAt,
    endedAt: list.reduce<number | null>((m, s) => (s.endedAt !== null && (m === null || s.endedAt > m) ? s.endedAt : m), null),
    totals: rollupUsage(list),
    threads: buildSessionThreads(list)[0]?.roots ?? [],
    turns: usageByTurn(list),
    cache: sessionCacheReport(list),
  };
}

export function createReports(store: Store, timeZone = localTimeZone()): Reports & { live(now?: number): LiveUsage } {
  return {
    usage(q): UsageResponse {
      const items = select(store, q);
      const report = usageReport(items, { timeZone });
      return {
        ...report.total,
        bySession: report.bySession,
        byDay: report.byDay,
        byModel: report.byModel,
        byThread: usageByThread(items),
        byTurn: usageByTurn(items),
        timeZone,
      };
    },
    session(sessionId): SessionReport | null {
      // Only this session's summaries, read through the store's session filter.
      const list = select(store, { session: sessionId ?? '' }).filter((s) => s.kind === 'model' && s.sessionId === sessionId);
      return list.length ? sessionReport(sessionId, list) : null;
    },
    // Recomputed after every model exchange: read from the roll-ups the store's triggers keep,
    // a few hundred rows at most, never the day's or the session's summaries.
    live(now = Date.now()): LiveUsage {
      const sessionId = store.latestSession();
      return {
        timeZone,
        today: usageOnly(store.usageSince(startOfToday(now, timeZone))),
        session: sessionId ? { sessionId, usage: usageOnly(store.sessionUsage(sessionId)) } : null,
      };
    },
  };
}
