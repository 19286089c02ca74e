import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureRun, type CaptureRun } from '../support/capture-run';
import { rawRequest } from '../support/http';
import { SessionPageSchema, SessionReportSchema, UsageResponseSchema } from '../../companion/protocol';

describe('threads and totals of a real Codex run with a sub-agent (multi_agent_v1)', () => {
  let r: CaptureRun;
  const api = async (p: string) =>
    JSON.parse(
      (await rawRequest(`${r.companion.url}/api${p}`, { headers: { authorization: `Bearer ${r.companion.token()}` } })).body.toString(),
    );
  beforeAll(async () => {
    r = await captureRun('subagentV1');
  });
  afterAll(() => r.dispose());

  it('lists the child under the parent that spawned it, with the spawn_agent call and the nickname Codex gave it', async () => {
    expect(r.run.exitCode).toBe(0);
    const { items } = SessionPageSchema.parse(await api('/sessions'));
    expect(items).toHaveLength(1);
    const report = SessionReportSchema.parse(await api(`/sessions/${encodeURIComponent(items[0].sessionId!)}/report`));
    const [root] = report.threads;
    expect(root).toMatchObject({ role: 'main', agentName: '/root' });
    expect(root.children).toHaveLength(1);
    const child = root.children[0];
    expect(child).toMatchObject({ role: 'subagent', parentThreadId: root.threadId });
    expect(child.spawnedBy).toMatchObject({ namespace: 'multi_agent_v1', callId: 'call_spawn', childThreadId: child.threadId });
    expect(child.spawnedBy!.arguments).toContain('Say hi and stop.');
    // The nickname arrives in the parent's spawn_agent output; the child's summary is updated with it.
    const nickname = JSON.parse(
      r.records.flatMap((x: any) => x.request.body.input).find((i: any) => i.type === 'function_call_output' && /agent_id/.test(i.output))
        .output,
    ).nickname;
    expect(child.nickname).toBe(nickname);
    expect((await api(`/exchanges?thread=${child.threadId}`)).items[0].agent.nickname).toBe(nickname);
    expect(root.rolledUp.allTrafficTokens).toBe(root.own.allTrafficTokens + child.rolledUp.allTrafficTokens);
  });

  it('shows "as Codex counts" (equal to its printout) beside all traffic, the difference being the sub-agent', async () => {
    const usage = UsageResponseSchema.parse(await api('/usage'));
    expect(usage.codexTokensUsed).toBe(r.run.tokensUsed);
    const child = r.summaries.find((s) => s.agent.role === 'subagent')!;
    const childTokens = child.usage!.inputTokens! - child.usage!.cachedTokens! + child.usage!.outputTokens!;
    expect(usage.allTrafficTokens - usage.codexTokensUsed).toBe(childTokens);
    expect(usage.uncounted.subagentTokens).toBe(childTokens);
  });
});
