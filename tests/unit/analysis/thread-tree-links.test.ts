import { describe, expect, it } from 'vitest';
import { buildSessionThreads } from '../../../companion/analysis/thread-tree';
import type { SpawnLink, ThreadNode } from '../../../companion/protocol/analysis';
import type { ExchangeSummary } from '../../../companion/protocol/exchange';

/**
 * A model exchange summary with only what the thread tree and its roll-ups read: 100 input and 10
 * output tokens (110 blended), counted by Codex, at $0.01.
 */
function summary(o: {
  thread: string | null;
  at: number;
  end?: number | null;
  session?: string | null;
  parent?: string | null;
  name?: string | null;
  nickname?: string | null;
  role?: 'main' | 'subagent';
  model?: string | null;
  effort?: string | null;
  spawns?: SpawnLink[];
  facts?: boolean;
  kind?: 'model' | 'other';
}): ExchangeSummary {
  return {
    id: `x_${o.thread}_${o.at}`,
    kind: o.kind ?? 'model',
    status: 'completed',
    startedAt: o.at,
    endedAt: o.end === undefined ? o.at + 10 : o.end,
    model: o.model === undefined ? 'gpt-5.5' : o.model,
    requestKind: 'turn',
    sessionId: o.session === undefined ? 's1' : o.session,
    threadId: o.thread,
    parentThreadId: o.parent ?? null,
    agent: { role: o.role ?? 'main', name: o.name ?? null, nickname: o.nickname ?? null },
    usage: { inputTokens: 100, cachedTokens: 0, cacheWriteTokens: null, outputTokens: 10, reasoningTokens: null, totalTokens: 110 },
    codexCounted: true,
    route: { auth: 'api' },
    costUsd: 0.01,
    facts: o.facts === false ? null : { reasoningEffort: o.effort ?? null, serviceTier: null, spawns: o.spawns ?? [] },
  } as unknown as ExchangeSummary;
}

function link(callId: string, o: Partial<SpawnLink> = {}): SpawnLink {
  return {
    callId,
    namespace: 'multi_agent_v1',
    childThreadId: null,
    childAgentName: null,
    nickname: null,
    taskName: null,
    model: null,
    reasoningEffort: null,
    arguments: '{}',
    ...o,
  };
}

const ids = (nodes: ThreadNode[]): unknown[] => nodes.map((n) => (n.children.length ? [n.threadId, ids(n.children)] : n.threadId));

describe('buildSessionThreads on built summaries', () => {
  it('gives a thread its agent name, nickname, models, efforts and span from its exchanges', () => {
    const [session] = buildSessionThreads([
      summary({ thread: 't', at: 300, end: null, name: '/root', model: 'gpt-5.5', effort: 'high' }),
      summary({ thread: 't', at: 100, end: 900, name: null, nickname: 'Ada', model: 'gpt-6.1-sol', effort: 'low' }),
      summary({ thread: 't', at: 200, end: 250, model: null, effort: 'high' }),
    ]);
    expect(session.sessionId).toBe('s1');
    const [t] = session.roots;
    expect(t).toMatchObject({
      threadId: 't',
      // The latest non-null value wins: the latest exchange names it.
      agentName: '/root',
      nickname: 'Ada',
      role: 'main',
      parentThreadId: null,
      spawnedBy: null,
      models: ['gpt-6.1-sol', 'gpt-5.5'],
      reasoningEfforts: ['high', 'low'],
      startedAt: 100,
      endedAt: 900,
      durationMs: 800,
      children: [],
    });
    expect(t.own.exchanges).toBe(3);
    expect(t.rolledUp).toEqual(t.own);
  });

  it('leaves the end and duration unknown while no exchange has ended', () => {
    const [t] = buildSessionThreads([summary({ thread: 't', at: 100, end: null })])[0].roots;
    expect([t.endedAt, t.durationMs]).toEqual([null, null]);
  });

  it('calls a thread a sub-agent when any of its exchanges says so', () => {
    const roots = buildSessionThreads([summary({ thread: 'c', at: 1, role: 'main' }), summary({ thread: 'c', at: 2, role: 'subagent' })])[0]
      .roots;
    expect(roots[0].role).toBe('subagent');
  });

  it('places v1 children by the thread id in the spawn output, taking the nickname from it', () => {
    const spawn = link('call_1', { childThreadId: 'child', nickname: 'Nietzsche' });
    const [session] = buildSessionThreads([
      summary({ thread: 'root', at: 1, spawns: [] }),
      summary({ thread: 'root', at: 5, spawns: [spawn] }),
      summary({ thread: 'child', at: 3, role: 'subagent' }),
    ]);
    expect(ids(session.roots)).toEqual([['root', ['child']]]);
    const child = session.roots[0].children[0];
    expect(child).toMatchObject({ parentThreadId: 'root', spawnedBy: spawn, nickname: 'Nietzsche' });
    // The root has no agent name, nor has the v1 link a child agent name: that is no match.
    expect(session.roots[0]).toMatchObject({ agentName: null, spawnedBy: null, nickname: null });
    expect(session.roots[0].rolledUp.exchanges).toBe(3);
    expect(session.roots[0].own.exchanges).toBe(2);
  });

  it('places v2 children by their agent name, and prefers the nickname the child’s own exchanges give', () => {
    const spawn = link('call_2', { namespace: 'collaboration', childAgentName: '/root/greeter', nickname: 'FromSpawn' });
    const [session] = buildSessionThreads([
      summary({ thread: 'root', at: 1, name: '/root', spawns: [spawn] }),
      summary({ thread: 'kid', at: 2, name: '/root/greeter', nickname: 'Own', role: 'subagent' }),
      summary({ thread: 'other', at: 3, name: null }),
    ]);
    expect(ids(session.roots)).toEqual([['root', ['kid']], 'other']);
    expect(session.roots[0].children[0]).toMatchObject({ nickname: 'Own', parentThreadId: 'root', spawnedBy: spawn });
  });

  it('places a named v2 child only by a spawn link of its own name, not by the first link of another', () => {
    const other = link('call_1', { namespace: 'collaboration', childAgentName: '/root/reviewer' });
    const [session] = buildSessionThreads([
      summary({ thread: 'root', at: 1, name: '/root', spawns: [other] }),
      summary({ thread: 'kid', at: 2, name: '/root/greeter', role: 'subagent' }),
    ]);
    // No spawn names /root/greeter and no header names a parent: the thread stands as a root.
    expect(ids(session.roots)).toEqual(['root', 'kid']);
    expect(session.roots[1].spawnedBy).toBeNull();
  });

  it('prefers the parent thread header over the spawn call', () => {
    const spawn = link('call_1', { childThreadId: 'child' });
    const [session] = buildSessionThreads([
      summary({ thread: 'a', at: 1, spawns: [spawn] }),
      summary({ thread: 'b', at: 2 }),
      summary({ thread: 'child', at: 3, parent: 'b' }),
    ]);
    expect(ids(session.roots)).toEqual(['a', ['b', ['child']]]);
    expect(session.roots[1].children[0].spawnedBy).toEqual(spawn);
  });

  it('takes the thread that first sent a call for its parent, and the copy that says most about the child', () => {
    const bare = link('call_1');
    const full = link('call_1', { childThreadId: 'child', nickname: 'N' });
    const partial = link('call_1', { childThreadId: 'child' });
    const [session] = buildSessionThreads([
      // A forked child's inherited copy comes later and says less.
      summary({ thread: 'child', at: 50, spawns: [partial] }),
      summary({ thread: 'root', at: 20, spawns: [full] }),
      summary({ thread: 'root', at: 10, spawns: [bare] }),
    ]);
    expect(ids(session.roots)).toEqual([['root', ['child']]]);
    expect(session.roots[0].children[0]).toMatchObject({ parentThreadId: 'root', spawnedBy: full, nickname: 'N' });
  });

  it('does not make a thread its own parent when its own request carries the call that names it', () => {
    const spawn = link('call_1', { childThreadId: 'self' });
    const [t] = buildSessionThreads([summary({ thread: 'self', at: 1, spawns: [spawn] })])[0].roots;
    expect(t).toMatchObject({ parentThreadId: null, spawnedBy: spawn });
  });

  it('counts the child thread id, agent name and nickname alike when choosing the fullest copy', () => {
    const byName = link('c', { childAgentName: '/root/x', nickname: 'N' });
    const byId = link('c', { childThreadId: 'x' });
    const [session] = buildSessionThreads([
      summary({ thread: 'root', at: 1, spawns: [byId] }),
      summary({ thread: 'root', at: 2, spawns: [byName] }),
      summary({ thread: 'x', at: 3, name: '/root/x' }),
    ]);
    expect(session.roots[0].children[0].spawnedBy).toEqual(byName);
  });

  it('keeps the earliest copy among copies that say as much', () => {
    const first = link('c', { childThreadId: 'x', arguments: '{"n":1}' });
    const second = link('c', { childThreadId: 'x', arguments: '{"n":2}' });
    const [session] = buildSessionThreads([
      summary({ thread: 'root', at: 2, spawns: [second] }),
      summary({ thread: 'root', at: 1, spawns: [first] }),
      summary({ thread: 'x', at: 3 }),
    ]);
    expect(session.roots[0].children[0].spawnedBy).toEqual(first);
  });

  it('orders roots and children by start, and rolls grandchildren up to the root', () => {
    const [session] = buildSessionThreads([
      summary({ thread: 'late-root', at: 50 }),
      summary({ thread: 'root', at: 1 }),
      summary({ thread: 'c2', at: 30, parent: 'root' }),
      summary({ thread: 'c1', at: 20, parent: 'root' }),
      summary({ thread: 'g', at: 40, parent: 'c2' }),
    ]);
    expect(ids(session.roots)).toEqual([['root', ['c1', ['c2', ['g']]]], 'late-root']);
    const root = session.roots[0];
    expect([root.own.exchanges, root.children[1].rolledUp.exchanges, root.rolledUp.exchanges]).toEqual([1, 2, 4]);
    expect(root.rolledUp.allTrafficTokens).toBe(440);
  });

  it('keeps a thread whose parent is unknown as a root', () => {
    expect(ids(buildSessionThreads([summary({ thread: 'orphan', at: 1, parent: 'gone' })])[0].roots)).toEqual(['orphan']);
  });

  it('shows threads caught in a parent cycle as roots, each once', () => {
    const [session] = buildSessionThreads([
      summary({ thread: 'a', at: 2, parent: 'b' }),
      summary({ thread: 'b', at: 1, parent: 'a' }),
      summary({ thread: 'self', at: 3, parent: 'self' }),
    ]);
    expect(ids(session.roots)).toEqual(['self', ['a', ['b']]]);
    const b = session.roots[1].children[0];
    expect(b.children).toEqual([]);
    expect(session.roots[1].rolledUp.exchanges).toBe(2);
  });

  it('groups summaries by session, leaving out non-model exchanges and those without a thread', () => {
    const sessions = buildSessionThreads([
      summary({ thread: 't1', at: 1, session: 's1' }),
      summary({ thread: 't2', at: 2, session: 's2' }),
      summary({ thread: 't3', at: 3, session: 's1' }),
      summary({ thread: 't4', at: 4, session: null }),
      summary({ thread: null, at: 5, session: 's1' }),
      summary({ thread: '', at: 6, session: 's1' }),
      summary({ thread: 't5', at: 7, session: 's3', kind: 'other' }),
    ]);
    expect(sessions.map((s) => [s.sessionId, ids(s.roots)])).toEqual([
      ['s1', ['t1', 't3']],
      ['s2', ['t2']],
      [null, ['t4']],
    ]);
  });

  it('places children without analysis facts by the parent header alone', () => {
    const [session] = buildSessionThreads([
      summary({ thread: 'r', at: 1, facts: false }),
      summary({ thread: 'c', at: 2, parent: 'r', facts: false }),
    ]);
    expect(ids(session.roots)).toEqual([['r', ['c']]]);
    expect(session.roots[0].reasoningEfforts).toEqual([]);
  });
});
