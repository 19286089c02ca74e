import { describe, expect, it } from 'vitest';
import { exchangeFacts } from '../../../companion/analysis/analyze';
import { buildSessionThreads } from '../../../companion/analysis/thread-tree';
import { rollupUsage } from '../../../companion/analysis/usage-rollup';
import { SessionThreadsSchema } from '../../../companion/protocol/analysis';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { analyseAll, httpFixtureFiles, OLD_FIXTURES, runRecords, runsOf, UNELIDED_FIXTURES } from '../../support/records';

/** Summaries as the store holds them once analysed: each with its facts (or none, not analysed yet). */
const withFacts = (records: ExchangeRecord[]) => records.map((r) => ({ ...r, facts: exchangeFacts(r) }));
const withoutFacts = (records: ExchangeRecord[]) => records.map((r) => ({ ...r, facts: null }));

async function v1() {
  return analyseAll(await runRecords('e-subagent-v1', runsOf(httpFixtureFiles(OLD_FIXTURES)).get('e-subagent-v1')!));
}
async function v2() {
  return analyseAll(await runRecords('codemode-subagent-v2', runsOf(httpFixtureFiles(UNELIDED_FIXTURES)).get('codemode-subagent-v2')!));
}

describe('buildSessionThreads', () => {
  it('puts a multi-agent v1 child under its parent, named by the spawn_agent output', async () => {
    const records = await v1();
    const [session] = buildSessionThreads(withFacts(records));
    expect(SessionThreadsSchema.parse(session)).toEqual(session);
    expect(session.roots).toHaveLength(1);
    const root = session.roots[0];
    expect(root).toMatchObject({ threadId: '01a228f7-7b6e-7f02-a6ea-e7e98155fd57', role: 'main', agentName: '/root' });
    expect(root.children).toHaveLength(1);
    const child = root.children[0];
    expect(child).toMatchObject({ threadId: '01a228f7-7c17-7471-81fe-fec882c6fd35', role: 'subagent', nickname: 'Nietzsche' });
    expect(child.spawnedBy).toMatchObject({
      callId: 'call_resp_001',
      namespace: 'multi_agent_v1',
      childThreadId: child.threadId,
      arguments: '{"message":"Say hi and stop."}',
    });
  });

  it('rolls each thread’s totals up to its parent', async () => {
    const records = await v1();
    const root = buildSessionThreads(withFacts(records))[0].roots[0];
    const child = root.children[0];
    expect(root.own.exchanges).toBe(3);
    expect(child.own.exchanges).toBe(1);
    expect(root.rolledUp.allTrafficTokens).toBe(root.own.allTrafficTokens + child.own.allTrafficTokens);
    expect(root.rolledUp.costUsd).toBeCloseTo(root.own.costUsd + child.own.costUsd, 12);
    expect(root.rolledUp).toEqual(rollupUsage(records));
    // Codex's own figure leaves the sub-agent out (architecture.md): 2,996, not 3,912.
    expect(root.rolledUp.codexTokensUsed).toBe(2996);
    expect(root.rolledUp.uncounted.subagentTokens).toBe(916);
  });

  it('puts a multi-agent v2 child under its parent, named /root/<task_name>, with model and effort', async () => {
    const records = await v2();
    const [session] = buildSessionThreads(withFacts(records));
    const root = session.roots[0];
    expect(session.roots).toHaveLength(1);
    expect(root.children).toHaveLength(1);
    expect(root.children[0]).toMatchObject({
      agentName: '/root/greeter',
      role: 'subagent',
      models: ['gpt-6.1-sol'],
      reasoningEfforts: ['low'],
      spawnedBy: { callId: 'call_spawn', namespace: 'collaboration', childAgentName: '/root/greeter', taskName: 'greeter' },
    });
  });

  it('keeps the parent’s copy of a spawn call over the copy a forked child inherits', async () => {
    const records = await v2();
    const child = buildSessionThreads(withFacts(records))[0].roots[0].children[0];
    // The child's inherited history shows the call with output "aborted"; the parent's names the child.
    expect(child.parentThreadId).toBe(records[0].threadId);
    expect(child.spawnedBy!.childAgentName).toBe('/root/greeter');
  });

  it('still places children by their parent thread header without analysis facts', async () => {
    const records = await v1();
    const root = buildSessionThreads(withoutFacts(records))[0].roots[0];
    expect(root.children.map((c) => c.threadId)).toEqual(['01a228f7-7c17-7471-81fe-fec882c6fd35']);
    expect(root.children[0].spawnedBy).toBeNull();
  });

  it('gives each thread its span from first start to last end', async () => {
    const records = await v1();
    const root = buildSessionThreads(withFacts(records))[0].roots[0];
    const mine = records.filter((r) => r.threadId === root.threadId);
    expect(root.startedAt).toBe(mine[0].startedAt);
    expect(root.durationMs).toBe(Math.max(...mine.map((r) => r.endedAt!)) - mine[0].startedAt);
  });

  it('builds one tree per session', async () => {
    const records = [...(await v1()), ...(await v2())];
    expect(buildSessionThreads(withFacts(records)).map((s) => s.roots.length)).toEqual([1, 1]);
  });
});
