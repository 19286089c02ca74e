/**
 * History in: the real Codex CLI runs through a companion with a temporary CODEX_HOME, then the
 * rollouts Codex wrote there are imported with `codex-devtools import`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureRun, type CaptureRun } from '../support/capture-run';
import { cli } from '../support/cli';
import { startTestCompanion, tempHome } from '../support/companion';
import { codexConfig, prepareCodex, runPrepared } from '../support/codex';
import { startFakeUpstream } from '../support/fake-upstream';
import { scenarios as scenarioPlans } from '../support/scenarios';
import { freePort } from '../support/ports';
import { callApi } from '../../companion/cli/client';
import { rollupUsage } from '../../companion/analysis';
import { createLogger } from '../../companion/lib/log';
import type { ExchangeSummary } from '../../companion/protocol/exchange';
import { Store } from '../../companion/store/store';
import type { ScenarioName } from '../support/scenarios';

const scenarios: [ScenarioName, Record<string, string>][] = [
  ['toolCall', {}],
  ['subagentV1', {}],
  ['localCompaction', { topLevel: 'model_auto_compact_token_limit = 10000' }],
];

/** Who is who: thread, parent thread, role and nickname per thread, as a comparable list. */
const threadsOf = (items: ExchangeSummary[]) =>
  [
    ...new Map(
      items
        .filter((s) => s.kind === 'model')
        .map((s) => [s.threadId, [s.threadId, s.parentThreadId, s.agent.role, s.agent.name, s.agent.nickname]]),
    ).values(),
  ].sort();

describe.each(scenarios)('importing the rollouts of a real Codex run (%s)', (scenario, extra) => {
  let run: CaptureRun;
  let fresh: string;
  beforeAll(async () => {
    run = await captureRun(scenario, extra);
    fresh = tempHome();
  });
  afterAll(async () => {
    await run?.dispose();
    fs.rmSync(fresh, { recursive: true, force: true });
  });

  it('into a fresh state directory: "as Codex counts" equals the tokens used Codex printed, the threads match, and each exchange is priced and judged as its capture was', async () => {
    expect(run.run.exitCode).toBe(0);
    const r = await cli(['import', '--codex-home', run.run.codexHome, '--home', fresh, '--port', String(await freePort())]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const responses = run.summaries.filter((s) => s.kind === 'model' && s.requestKind !== 'prewarm' && s.responseId);
    expect(r.stdout).toContain(`Imported ${responses.length} exchange`);
    const imported = [...Store.open({ home: fresh, log: createLogger('silent') }).summaries()];
    expect(imported.every((s) => s.source === 'rollout')).toBe(true);
    expect(rollupUsage(imported).codexTokensUsed).toBe(run.run.tokensUsed);
    expect(imported.map((s) => s.responseId).sort()).toEqual(responses.map((s) => s.responseId).sort());
    expect(threadsOf(imported)).toEqual(threadsOf(run.summaries));
    // Analysed as the capture was: the same usage priced alike, and the same cache verdict.
    const judged = (items: ExchangeSummary[]) =>
      items.map((s) => [s.responseId, s.costUsd, s.cache?.verdict ?? null]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(judged(imported)).toEqual(judged(responses));
    expect(imported.every((s) => s.costUsd !== null && s.cache !== null)).toBe(true);
  });

  it("into the capturing companion's own directory (through its API): nothing is added, no token counted twice", async () => {
    const before = await run.companion.store.usage({});
    const res = await callApi(run.companion.port, run.companion.home, 'POST', '/import', { codexHomes: [run.run.codexHome] });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ added: 0, malformed: 0 });
    expect((res.json as { duplicates: number }).duplicates).toBeGreaterThan(0);
    const after = await run.companion.store.usage({});
    expect(after.codexTokensUsed).toBe(before.codexTokensUsed);
    expect(after.allTrafficTokens).toBe(before.allTrafficTokens);
    expect(after.exchanges).toBe(before.exchanges);
    expect(after.codexTokensUsed).toBe(run.run.tokensUsed);
  });
});

describe('--watch-codex-home on the Codex home of the run being captured', () => {
  it('counts each response once: what the proxy captured is not imported again from the rollout', async () => {
    const upstream = await startFakeUpstream({ scenario: scenarioPlans.subagentV1() });
    const prepared = prepareCodex({ prompt: 'run echo hi', baseUrl: 'http://127.0.0.1:1/v1' });
    const c = await startTestCompanion({ apiUpstream: upstream.baseUrl, watchCodexHomes: [prepared.codexHome], watchIntervalMs: 20 });
    try {
      // The config needs the companion's port, known only now.
      fs.writeFileSync(path.join(prepared.codexHome, 'config.toml'), codexConfig({ prompt: '', baseUrl: `${c.url}/v1` }));
      const codex = await runPrepared(prepared);
      expect(codex.exitCode).toBe(0);
      await new Promise((r) => setTimeout(r, 200));
      await c.idle();
      const all = (await c.store.list({ limit: 1000 })).items;
      expect(all.filter((s) => s.source === 'rollout')).toEqual([]);
      expect((await c.store.usage({})).codexTokensUsed).toBe(codex.tokensUsed);
    } finally {
      await c.dispose();
      await upstream.close();
      prepared.cleanup();
    }
  });
});
