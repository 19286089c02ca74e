/**
 * A brute-force model of the SQLite store's queries, for the property tests: the same records
 * filtered, searched, sorted and summed by scanning arrays. Where the store has a rule (which
 * exchange an item belongs to, how a summary sorts), the model restates it plainly. Test-only.
 */
import fc from 'fast-check';
import { addSummary, emptyRollup } from '../../companion/analysis/usage-rollup';
import { sessionContext } from '../../companion/analysis/session-context';
import type { ExchangeRecord, ExchangeSummary } from '../../companion/protocol/exchange';
import { summaryOf } from '../../companion/store/codec';
import { sortValue, summaryText } from '../../companion/protocol/exchange-match';
import type { SortKey } from '../../companion/store/sqlite/columns';
import { itemText } from '../../companion/store/sqlite/item-text';
import type { ExchangeFilter, ListQuery } from '../../companion/store/sqlite/query';
import { localDay } from '../../companion/store/sqlite/time-zone';

/** Words of English and Chinese text, so searches hit inside words and in CJK runs. */
export const WORDS = ['refactor', 'parser', 'tokenizer', 'database', 'migration', '数据库', '迁移脚本', '搜索功能', 'café', 'x'];

const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));

/** One new input item: a user prompt, a tool call, a tool output or a reasoning summary. */
export const inputItem = fc.oneof(
  text.map((t) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text: t }] })),
  fc.record({ name: fc.constantFrom('exec_command', 'apply_patch'), t: text }).map(({ name, t }) => ({
    type: 'function_call',
    name,
    arguments: JSON.stringify({ cmd: t }),
    call_id: 'c',
  })),
  text.map((t) => ({ type: 'function_call_output', call_id: 'c', output: t })),
  text.map((t) => ({ type: 'reasoning', summary: [{ type: 'summary_text', text: t }] })),
);

const dyadic = (max: number) => fc.integer({ min: 0, max }).map((k) => k / 1024);
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 28, 20, 0);

/** What varies between exchanges of a random history (the rest comes from a captured template). */
export const exchangeSpec = fc.record({
  session: fc.constantFrom('s-a', 's-b', null),
  thread: fc.constantFrom('t-1', 't-2', null),
  status: fc.constantFrom('completed', 'failed', 'aborted', 'incomplete'),
  kind: fc.constantFrom('model', 'model', 'other'),
  requestKind: fc.constantFrom('turn', 'prewarm', 'compaction'),
  transport: fc.constantFrom('http', 'websocket'),
  source: fc.constantFrom('captured', 'rollout'),
  role: fc.constantFrom('main', 'subagent'),
  nickname: fc.constantFrom(null, 'Plato', 'Kant'),
  model: fc.constantFrom(null, 'gpt-5-codex', 'gpt-5'),
  requested: fc.constantFrom(null, 'gpt-5-codex', 'gpt-5-mini'),
  usage: fc.option(fc.record({ input: fc.nat(20_000), cachedPart: fc.nat(100), output: fc.nat(2_000) }), { nil: null }),
  cost: fc.option(dyadic(4096), { nil: null }),
  cache: fc.option(fc.record({ verdict: fc.constantFrom('hit', 'miss', 'cold'), missCost: fc.option(dyadic(512), { nil: null }) }), {
    nil: null,
  }),
  startedAt: fc.integer({ min: 0, max: 3 * DAY }).map((t) => T0 + t),
  duration: fc.option(fc.nat(120_000), { nil: null }),
  codexCounted: fc.boolean(),
  error: fc.option(text, { nil: null }),
  /** How many items of the thread's previous input to keep, then the new ones. */
  keepAll: fc.boolean(),
  add: fc.array(inputItem, { maxLength: 3 }),
  output: fc.array(inputItem, { maxLength: 2 }),
});
export type ExchangeSpec = typeof exchangeSpec extends fc.Arbitrary<infer T> ? T : never;

let counter = 0;
/** Records from specs; each thread's input grows like Codex's (or restarts, as after compaction). */
export function buildRecords(template: ExchangeRecord, specs: ExchangeSpec[]): ExchangeRecord[] {
  const inputs = new Map<string, unknown[]>();
  return specs.map((s) => {
    const key = `${s.session}|${s.thread}`;
    const input = [...(s.keepAll ? (inputs.get(key) ?? []) : []), ...s.add];
    inputs.set(key, input);
    const id = `x${String(++counter).padStart(8, '0')}`;
    const usage = s.usage
      ? {
          inputTokens: s.usage.input,
          cachedTokens: Math.floor((s.usage.input * s.usage.cachedPart) / 100),
          cacheWriteTokens: null,
          outputTokens: s.usage.output,
          reasoningTokens: null,
          totalTokens: s.usage.input + s.usage.output,
        }
      : null;
    const record: ExchangeRecord = {
      ...template,
      id,
      kind: s.kind as ExchangeRecord['kind'],
      transport: s.transport as ExchangeRecord['transport'],
      status: s.status as ExchangeRecord['status'],
      startedAt: s.startedAt,
      endedAt: s.duration === null ? null : s.startedAt + s.duration,
      requestKind: s.requestKind as ExchangeRecord['requestKind'],
      sessionId: s.session,
      threadId: s.thread,
      agent: { role: s.role as 'main' | 'subagent', name: s.role === 'subagent' ? 'worker' : null, nickname: s.nickname },
      model: s.model,
      route: { ...template.route, modelRequested: s.requested, modelSent: s.requested },
      usage,
      codexCounted: s.codexCounted,
      costUsd: s.cost,
      cache: s.cache
        ? {
            verdict: s.cache.verdict as 'hit',
            why: null,
            whyCode: null,
            hitRate: null,
            miss: s.cache.verdict === 'miss',
            reasons: [],
            expectedCachedTokens: null,
            missedTokens: null,
            missCostUsd: s.cache.missCost,
          }
        : null,
      error: s.error ? { code: 'e', message: s.error, upstreamCode: null } : null,
      source: s.source as ExchangeRecord['source'],
      request: { ...template.request, body: { ...(template.request.body as object), input } },
      response: { ...template.response, output: s.output as ExchangeRecord['response']['output'] },
    };
    return JSON.parse(JSON.stringify(record)) as ExchangeRecord;
  });
}

/** Brute-force state: the records as written, in order, with the texts each exchange owns. */
export class Oracle {
  readonly summaries = new Map<string, ExchangeSummary>();
  private readonly own = new Map<string, string[]>();
  private readonly titles = new Map<string, { title: string | null; cwd: string | null }>();
  private readonly inputs = new Map<string, string[]>();
  private readonly claimed = new Map<string, Set<string>>();

  add(r: ExchangeRecord): void {
    const session = r.sessionId ?? '';
    const body = r.request.body as { input: unknown[] };
    const hashes = body.input.map((i) => JSON.stringify(i));
    // The base is the thread's latest exchange by start time (the store's rule).
    let base: ExchangeSummary | null = null;
    for (const s of this.summaries.values())
      if (
        (s.sessionId ?? '') === session &&
        s.threadId === r.threadId &&
        (!base || s.startedAt > base.startedAt || (s.startedAt === base.startedAt && s.id > base.id))
      )
        base = s;
    const prev = base ? (this.inputs.get(base.id) ?? []) : [];
    let keep = 0;
    while (keep < prev.length && keep < hashes.length && prev[keep] === hashes[keep]) keep++;
    const brought = [...hashes.slice(keep), ...r.response.output.map((i) => JSON.stringify(i))];
    const claimed = this.claimed.get(session) ?? new Set<string>();
    this.claimed.set(session, claimed);
    const mine: string[] = [];
    for (const h of brought) {
      if (claimed.has(h)) continue;
      claimed.add(h);
      const t = itemText(JSON.parse(h));
      if (t) mine.push(t);
    }
    this.own.set(r.id, mine);
    this.inputs.set(r.id, hashes);
    this.titles.set(r.id, sessionContext(body.input));
    this.summaries.set(r.id, summaryOf(r));
  }

  patch(id: string, patch: Partial<ExchangeSummary>): void {
    const s = this.summaries.get(id);
    if (s) this.summaries.set(id, { ...s, ...patch });
  }

  dropSession(session: string | null): void {
    for (const [id, s] of this.summaries) if (s.sessionId === session) this.summaries.delete(id);
    this.forgetEmptySessions();
  }

  keepOnly(ids: Set<string>): void {
    for (const id of [...this.summaries.keys()]) if (!ids.has(id)) this.summaries.delete(id);
    this.forgetEmptySessions();
  }

  /** A deleted session's items belong to no exchange any more: the next one to bring them owns them. */
  private forgetEmptySessions(): void {
    const present = new Set([...this.summaries.values()].map((s) => s.sessionId ?? ''));
    for (const k of [...this.claimed.keys()]) if (!present.has(k)) this.claimed.delete(k);
  }

  matches(s: ExchangeSummary, f: ExchangeFilter): boolean {
    if (f.session !== undefined && (s.sessionId ?? '') !== f.session) return false;
    if (f.thread !== undefined && s.threadId !== f.thread) return false;
    if (f.agent !== undefined && s.agent.name !== f.agent && s.agent.nickname !== f.agent) return false;
    if (f.status !== undefined && s.status !== f.status) return false;
    if (f.kind !== undefined && s.kind !== f.kind && s.requestKind !== f.kind) return false;
    if (f.model !== undefined && ![s.model, s.route.modelRequested, s.route.modelSent].includes(f.model)) return false;
    if (f.transport !== undefined && s.transport !== f.transport) return false;
    if (f.verdict !== undefined && (s.cache?.verdict ?? null) !== f.verdict) return false;
    if (f.source !== undefined && s.source !== f.source) return false;
    if (f.minCost !== undefined && !(s.costUsd !== null && s.costUsd >= f.minCost)) return false;
    if (f.minInput !== undefined && !((s.usage?.inputTokens ?? -1) >= f.minInput)) return false;
    if (f.miss && !s.cache?.miss) return false;
    if (f.since !== undefined && s.startedAt < f.since) return false;
    if (f.until !== undefined && s.startedAt >= f.until) return false;
    if (f.q) {
      const q = f.q.toLowerCase();
      if (!summaryText(s).includes(q) && !(this.own.get(s.id) ?? []).some((t) => t.includes(q))) return false;
    }
    return true;
  }

  /** Every matching id in the query's order (all pages). */
  list(q: ListQuery): string[] {
    const out = [...this.summaries.values()].filter((s) => this.matches(s, q));
    const desc = (q.order ?? 'desc') === 'desc' ? -1 : 1;
    const key = (s: ExchangeSummary) => (q.sort ? sortValue(s, q.sort) : 0);
    out.sort((a, b) => {
      const d = key(a) - key(b);
      if (d !== 0) return d * desc;
      return (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * desc;
    });
    return out.map((s) => s.id);
  }

  rollup(filter: (s: ExchangeSummary) => boolean) {
    const r = emptyRollup();
    for (const s of this.summaries.values()) if (filter(s)) addSummary(r, s);
    return r;
  }

  days(timeZone: string): Map<string, ExchangeSummary[]> {
    const out = new Map<string, ExchangeSummary[]>();
    for (const s of this.summaries.values()) {
      const d = localDay(s.startedAt, timeZone);
      out.set(d, [...(out.get(d) ?? []), s]);
    }
    return out;
  }

  /** A session's title and working directory: those of its earliest exchange that has one. */
  sessionContext(session: string | null): { title: string | null; cwd: string | null } {
    const list = [...this.summaries.values()]
      .filter((s) => s.sessionId === session)
      .sort((a, b) => a.startedAt - b.startedAt || (a.id < b.id ? -1 : 1));
    const pick = (k: 'title' | 'cwd') => list.map((s) => this.titles.get(s.id)?.[k] ?? null).find((v) => v !== null) ?? null;
    return { title: pick('title'), cwd: pick('cwd') };
  }
}

export const SORTS: SortKey[] = ['time', 'cost', 'input', 'output', 'cachedShare', 'duration', 'missCost'];
