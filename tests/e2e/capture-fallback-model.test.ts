import { afterAll, describe, expect, it } from 'vitest';
import { captureScenarios, countedByCompanion } from './capture-scenarios';
import { captureRun, type CaptureRun } from '../support/capture-run';

captureScenarios('gpt-5-codex', { codeMode: false });

describe('failures with the real Codex CLI', () => {
  const runs: CaptureRun[] = [];
  afterAll(async () => Promise.all(runs.map((r) => r.dispose())));
  const run = async (...a: Parameters<typeof captureRun>) => {
    const r = await captureRun(...a);
    runs.push(r);
    return r;
  };

  it('records a 429 usage limit as failed with its rate limits; Codex prints no token figure', async () => {
    const { run: codex, summaries, records } = await run('usageLimit');
    expect(codex.exitCode).not.toBe(0);
    expect(codex.stderr).toMatch(/usage limit/i);
    expect(codex.tokensUsed).toBeNull();
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({
      status: 'failed',
      httpStatus: 429,
      codexCounted: false,
      error: { code: 'http_429', upstreamCode: 'usage_limit_reached' },
    });
    expect(records[0].rateLimits?.codex[0].primary?.usedPercent).toBe(100);
    expect(countedByCompanion(summaries)).toBe(0);
  });

  it('records response.failed with the upstream error and leaves it out of the count', async () => {
    const { run: codex, summaries } = await run('failed');
    expect(codex.exitCode).not.toBe(0);
    expect(codex.stderr).toMatch(/quota/i);
    expect(summaries.every((s) => s.status === 'failed' && !s.codexCounted && s.error?.upstreamCode === 'insufficient_quota')).toBe(true);
    expect(summaries[0].usage?.inputTokens).toBe(3000);
  });

  it('records response.incomplete with its reason and counts it as Codex does', async () => {
    const { run: codex, summaries } = await run('incomplete');
    expect(codex.stderr).toMatch(/Incomplete response returned, reason: max_output_tokens/);
    expect(summaries[0]).toMatchObject({ status: 'incomplete', codexCounted: true, error: { upstreamCode: 'max_output_tokens' } });
    expect(codex.tokensUsed).toBe(4300);
    expect(countedByCompanion(summaries)).toBe(codex.tokensUsed);
  });

  it('links a multi_agent_v2 child (collaboration namespace) on the fallback model too', async () => {
    const { run: codex, summaries } = await run('subagentV2', { tables: '[features]\nmulti_agent_v2 = true\n' });
    expect(codex.exitCode).toBe(0);
    const child = summaries.find((s) => s.agent.role === 'subagent')!;
    expect(child.agent.name).toBe('/root/greeter');
    expect(child.parentThreadId).toBe(summaries[0].threadId);
    expect(countedByCompanion(summaries)).toBe(codex.tokensUsed);
  });
});
