/**
 * @module Glue between the store and the analysis roll-ups for `/api/usage`, `/api/sessions` and
 * the live feed's counters: this selects the summaries; the analysis stage does the sums.
 */
import { buildSessionThreads, rollupUsage, sessionCacheReport, usageByThread, usageByTurn, usageReport } from './analysis';
import type { Reports, UsageQuery } from './context';
import type { UsageResponse, SessionsResponse } from './protocol/api';
import type { ExchangeSummary } from './protocol/exchange';
import type { LiveUsage } from './protocol/live';
import type { Store } from './store/store';

/** The user's own time zone: "today" and daily totals follow the clock on their wall. */
export const LOCAL_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function select(store: Store, q: UsageQuery): ExchangeSummary[] {
  const out: ExchangeSummary[] = [];
  for (const s of store.summaries()) {
    if (q.session && s.sessionId !== q.session) continue;
    if (q.since !== undefined && s.startedAt < q.since) continue;
    if (q.until !== undefined && s.startedAt >= q.until) continue;
    out.push(s);
  }
  return out;
}

/** Midnight of the current day in `timeZone`, as epoch milliseconds. */
export function startOfToday(now: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(now));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const sinceMidnight = ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000 + (now % 1000);
  return now - sinceMidnight;
}

export function createReports(store: Store, timeZone = LOCAL_TIME_ZONE): Reports & { live(now?: number): LiveUsage } {
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
    sessions(): SessionsResponse {
      const bySession = new Map<string | null, ExchangeSummary[]>();
      for (const s of store.summaries()) {
        if (s.kind !== 'model') continue;
        const list = bySession.get(s.sessionId);
        if (list) list.push(s);
        else bySession.set(s.sessionId, [s]);
      }
      const sessions = [...bySession].map(([sessionId, list]) => ({
        sessionId,
        startedAt: list[0].startedAt,
        endedAt: list.reduce<number | null>((m, s) => (s.endedAt !== null && (m === null || s.endedAt > m) ? s.endedAt : m), null),
        totals: rollupUsage(list),
        threads: buildSessionThreads(list)[0]?.roots ?? [],
        turns: usageByTurn(list),
        cache: sessionCacheReport(list),
      }));
      return { sessions: sessions.sort((a, b) => b.startedAt - a.startedAt) };
    },
    live(now = Date.now()): LiveUsage {
      const midnight = startOfToday(now, timeZone);
      const today: ExchangeSummary[] = [];
      let latest: ExchangeSummary | null = null;
      for (const s of store.summaries()) {
        if (s.startedAt >= midnight) today.push(s);
        if (s.kind === 'model' && s.sessionId && (!latest || s.startedAt >= latest.startedAt)) latest = s;
      }
      const sessionId = latest?.sessionId ?? null;
      return {
        timeZone,
        today: rollupUsage(today),
        session: sessionId ? { sessionId, usage: rollupUsage(select(store, { session: sessionId })) } : null,
      };
    },
  };
}
