/**
 * @module `codex-devtools usage`: the API's usage figures in the terminal, as a table or JSON,
 * from the running companion when there is one, else from the state directory.
 */
import { createLogger } from '../lib/log';
import { UsageResponseSchema, type UsageResponse } from '../protocol/api';
import { UsageRollupSchema, type UsageRollup } from '../protocol/analysis';
import { createReports } from '../reports';
import { Store } from '../store/store';
import { callApi } from './client';
import { probe } from '../lib/probe';
import { UsageError } from './errors';
import { COMMON, companionPort, home, parse } from './options';

export const USAGE_HELP = `Usage: codex-devtools usage [--by day|session|model|thread] [--since <when>] [--until <when>] [--json]

Token usage and cost of what was captured and imported: "as Codex counts" (the tokens used Codex
prints: the root thread's turns) beside all traffic, the cached share of input, the priced cost
and the tokens of models without a price (never counted as $0).

Options:
  --by <key>       group rows by day (default), session, model or thread
  --since <when>   from this time on: 2026-11-30, 2026-11-30T14:00, today, 7d, 12h
  --until <when>   before this time (same forms)
  --json           print JSON (totals and rows) for scripts
  --home <dir>     state directory;  --port <n>  the running companion`;

const BY = ['day', 'session', 'model', 'thread'] as const;
type By = (typeof BY)[number];

/** `2026-11-30` (local midnight), an ISO time, `today`, or `<n>d` / `<n>h` / `<n>m` ago. */
export function parseWhen(flag: string, value: string, now = Date.now()): number {
  const v = value.trim();
  if (v === 'today') {
    const d = new Date(now);
    d.setHours(0, 0, 0, 0);
    return d.getTime();
  }
  const rel = /^(\d+)\s*([dhm])$/.exec(v);
  if (rel) return now - Number(rel[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[rel[2] as 'd' | 'h' | 'm'];
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00` : v);
  if (!Number.isFinite(t))
    throw new UsageError(`--${flag} must be a date (2026-11-30), a time, today, or 7d / 12h / 30m, not ${JSON.stringify(value)}`);
  return t;
}

export interface UsageRow extends UsageRollup {
  key: string;
}

export function rowsOf(u: UsageResponse, by: By): UsageRow[] {
  switch (by) {
    case 'day':
      return u.byDay.map((r) => ({ ...r, key: r.day }));
    case 'session':
      return u.bySession.map((r) => ({ ...r, key: r.sessionId ?? '(no session)' }));
    case 'model':
      return u.byModel.map((r) => ({ ...r, key: r.model ?? '(unknown model)' }));
    case 'thread':
      return u.byThread.map((r) => ({ ...r, key: r.threadId ?? '(no thread)' }));
  }
}

const n = (v: number) => v.toLocaleString('en-US');
/** Cached share of input; unknown (no input) is shown as a dash, never 0 %. */
const share = (r: UsageRollup) => (r.inputTokens > 0 ? `${((100 * r.cachedTokens) / r.inputTokens).toFixed(1)} %` : '–');
const usd = (v: number) => (v === 0 ? '$0' : v < 0.01 ? `$${v.toFixed(4)}` : `$${v.toFixed(2)}`);
/** A cost with nothing priced is unknown, not $0. */
const cost = (r: UsageRollup) => (r.exchangesWithUsage > 0 && r.unpricedExchanges === r.exchangesWithUsage ? 'unknown' : usd(r.costUsd));

export function usageTable(rows: UsageRow[], total: UsageRollup, by: By): string {
  const head = [by, 'exchanges', 'as Codex counts', 'all traffic', 'input', 'cached', 'output', 'cost', 'unpriced tokens'];
  const line = (k: string, r: UsageRollup) => [
    k,
    n(r.exchanges),
    n(r.codexTokensUsed),
    n(r.allTrafficTokens),
    n(r.inputTokens),
    share(r),
    n(r.outputTokens),
    cost(r),
    n(r.unpricedTokens),
  ];
  const body = [head, ...rows.map((r) => line(r.key, r)), line('total', total)];
  const widths = head.map((_, i) => Math.max(...body.map((row) => row[i].length)));
  const fmt = (row: string[]) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.slice(1, -1).map(fmt), fmt(body[body.length - 1])];
  return out.join('\n');
}

export async function usageCommand(args: string[]): Promise<number> {
  const { values } = parse('usage', args, {
    ...COMMON,
    by: { type: 'string' },
    since: { type: 'string' },
    until: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.help) {
    console.log(USAGE_HELP);
    return 0;
  }
  const by = (values.by ?? 'day') as By;
  if (!BY.includes(by)) throw new UsageError(`--by must be day, session, model or thread, not ${JSON.stringify(values.by)}`);
  const since = values.since !== undefined ? parseWhen('since', values.since as string) : undefined;
  const until = values.until !== undefined ? parseWhen('until', values.until as string) : undefined;
  if (since !== undefined && until !== undefined && until <= since) throw new UsageError('--until must be after --since');
  const h = home(values.home);
  const p = companionPort(values, h);
  let usage: UsageResponse | null = null;
  if ((await probe(p)).kind === 'companion') {
    const q = new URLSearchParams();
    if (since !== undefined) q.set('since', String(since));
    if (until !== undefined) q.set('until', String(until));
    const r = await callApi(p, h, 'GET', `/usage${q.size ? `?${q}` : ''}`);
    if (r.status !== 401) {
      if (r.status >= 400) throw new UsageError(`usage failed: ${JSON.stringify(r.json)}`, 1);
      usage = UsageResponseSchema.parse(r.json);
    }
  }
  usage ??= createReports(Store.open({ home: h, log: createLogger('warn') })).usage({ since, until });
  // The schema keeps the totals' own fields and drops the breakdowns.
  const total = UsageRollupSchema.parse(usage);
  const timeZone = usage.timeZone;
  const rows = rowsOf(usage, by);
  if (values.json) console.log(JSON.stringify({ by, since: since ?? null, until: until ?? null, timeZone, total, rows }, null, 2));
  else console.log(usageTable(rows, total, by));
  return 0;
}
