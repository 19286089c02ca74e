/**
 * @module A session as a tree of threads: the root agent and its sub-agents, each under the
 * parent that spawned it (with the `spawn_agent` call when seen), with its own totals and the
 * totals rolled up to it. Identity comes from Codex's headers (`x-codex-parent-thread-id`) and the
 * spawn outputs, never from prompt text.
 */
import type { SessionThreads, SpawnLink, ThreadNode } from '../protocol/analysis';
import type { ExchangeSummary } from '../protocol/exchange';
import { rollupUsage, sumRollups } from './usage-rollup';

interface ThreadAcc {
  threadId: string;
  exchanges: ExchangeSummary[];
  efforts: Set<string>;
}

interface FoundLink {
  link: SpawnLink;
  /** Thread whose request carried the call, and when: the earliest copy is the parent's own. */
  fromThread: string;
  at: number;
}

const info = (l: SpawnLink) => (l.childThreadId ? 1 : 0) + (l.childAgentName ? 1 : 0) + (l.nickname ? 1 : 0);

/**
 * One link per call id. Codex resends history, so a call appears in every later request of the
 * parent (and in a forked child's inherited history): the earliest copy tells which thread made
 * the call, the copy with the most information (its output parsed) tells which child it made.
 */
function collectLinks(threads: Map<string, ThreadAcc>): FoundLink[] {
  const copies = new Map<string, FoundLink[]>();
  for (const t of threads.values())
    for (const s of t.exchanges)
      for (const link of s.facts?.spawns ?? []) {
        const list = copies.get(link.callId) ?? [];
        list.push({ link, fromThread: t.threadId, at: s.startedAt });
        copies.set(link.callId, list);
      }
  return [...copies.values()].map((list) => {
    list.sort((a, b) => a.at - b.at);
    const best = list.reduce((a, b) => (info(b.link) > info(a.link) ? b : a));
    return { link: best.link, fromThread: list[0].fromThread, at: list[0].at };
  });
}

function lastOf<T>(list: ExchangeSummary[], pick: (s: ExchangeSummary) => T | null): T | null {
  for (let i = list.length - 1; i >= 0; i--) {
    const v = pick(list[i]);
    if (v !== null) return v;
  }
  return null;
}

function buildSession(sessionId: string | null, summaries: ExchangeSummary[]): SessionThreads {
  const threads = new Map<string, ThreadAcc>();
  for (const s of summaries) {
    const id = s.threadId as string;
    let t = threads.get(id);
    if (!t) threads.set(id, (t = { threadId: id, exchanges: [], efforts: new Set() }));
    t.exchanges.push(s);
    const effort = s.facts?.reasoningEffort;
    if (effort) t.efforts.add(effort);
  }
  const links = collectLinks(threads);
  const nodes = new Map<string, ThreadNode>();
  for (const t of threads.values()) {
    t.exchanges.sort((a, b) => a.startedAt - b.startedAt);
    const agentName = lastOf(t.exchanges, (s) => s.agent.name);
    const headerParent = lastOf(t.exchanges, (s) => s.parentThreadId);
    // v1 children are named by thread id; v2 children by agent name (`/root/<task>`).
    const found =
      links.find((l) => l.link.childThreadId === t.threadId) ?? links.find((l) => agentName && l.link.childAgentName === agentName);
    const ended = t.exchanges.map((s) => s.endedAt).filter((x): x is number => x !== null);
    const startedAt = t.exchanges[0].startedAt;
    const endedAt = ended.length ? Math.max(...ended) : null;
    const own = rollupUsage(t.exchanges);
    nodes.set(t.threadId, {
      threadId: t.threadId,
      agentName,
      nickname: lastOf(t.exchanges, (s) => s.agent.nickname) ?? found?.link.nickname ?? null,
      role: t.exchanges.some((s) => s.agent.role === 'subagent') ? 'subagent' : 'main',
      parentThreadId: headerParent ?? (found && found.fromThread !== t.threadId ? found.fromThread : null),
      spawnedBy: found?.link ?? null,
      models: [...new Set(t.exchanges.map((s) => s.model).filter((m): m is string => m !== null))],
      reasoningEfforts: [...t.efforts],
      startedAt,
      endedAt,
      durationMs: endedAt === null ? null : Math.max(0, endedAt - startedAt),
      own,
      rolledUp: own,
      children: [],
    });
  }
  const roots: ThreadNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.parentThreadId ? nodes.get(n.parentThreadId) : undefined;
    if (parent && parent !== n) parent.children.push(n);
    else roots.push(n);
  }
  const rollUp = (n: ThreadNode, seen: Set<string>): void => {
    seen.add(n.threadId);
    n.children = n.children.filter((c) => !seen.has(c.threadId)).sort((a, b) => a.startedAt - b.startedAt);
    n.children.forEach((c) => rollUp(c, seen));
    n.rolledUp = sumRollups([n.own, ...n.children.map((c) => c.rolledUp)]);
  };
  const seen = new Set<string>();
  roots.sort((a, b) => a.startedAt - b.startedAt).forEach((r) => rollUp(r, seen));
  // Threads caught in a parent cycle (inconsistent headers) still show, as roots.
  for (const n of nodes.values())
    if (!seen.has(n.threadId)) {
      roots.push(n);
      rollUp(n, seen);
    }
  return { sessionId, roots };
}

/**
 * Thread trees of every session in `summaries` (model exchanges with a thread id). Each summary's
 * analysis facts give reasoning effort and spawn calls; without them (not analysed yet) threads
 * are still placed under their parent by `parentThreadId`.
 */
export function buildSessionThreads(summaries: readonly ExchangeSummary[]): SessionThreads[] {
  const bySession = new Map<string | null, ExchangeSummary[]>();
  for (const s of summaries) {
    if (s.kind !== 'model' || !s.threadId) continue;
    const list = bySession.get(s.sessionId);
    if (list) list.push(s);
    else bySession.set(s.sessionId, [s]);
  }
  return [...bySession].map(([sessionId, list]) => buildSession(sessionId, list));
}
