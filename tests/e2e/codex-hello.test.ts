import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { message, response } from '../support/sse';
import { runCodex, type CodexRun } from '../support/codex';
import { startTestCompanion, type TestCompanion } from '../support/companion';

describe('the real Codex CLI through the companion', () => {
  let upstream: FakeUpstream;
  let companion: TestCompanion;
  let run: CodexRun;

  beforeAll(async () => {
    upstream = await startFakeUpstream({
      scenario: () => ({
        kind: 'sse',
        events: response([message('Hello from the fake upstream.')], { usage: { input: 5000, cached: 4096, output: 12 } }),
      }),
    });
    companion = await startTestCompanion({ apiUpstream: upstream.baseUrl });
    run = await runCodex({ prompt: 'say hello', baseUrl: `${companion.url}/v1` });
    await companion.idle();
  });

  afterAll(async () => {
    run?.cleanup();
    await companion?.dispose();
    await upstream?.close();
  });

  it('prints the answer the fake upstream gave, reached through the companion', () => {
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('Hello from the fake upstream.');
    const [req] = upstream.modelRequests();
    expect(req.url).toBe('/v1/responses');
    expect(req.body.input.at(-1).content[0].text).toBe('say hello');
  });

  it('records the exchange with the usage Codex counted', async () => {
    const { items } = await companion.store.list({});
    expect(items).toHaveLength(1);
    expect(items[0].status).toBe('completed');
    expect(items[0].usage).toMatchObject({ inputTokens: 5000, cachedTokens: 4096, outputTokens: 12 });
    expect(run.tokensUsed).toBe(916);
  });
});
