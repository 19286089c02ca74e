/**
 * One end-to-end capture run: fake upstream playing a scenario, a companion in front of it, the
 * real Codex CLI pointed at the companion. Returns what Codex printed and what was captured.
 * Test-only.
 */
import type { ExchangeRecord, ExchangeSummary } from '../../companion/protocol/exchange';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream';
import { acceptWebSockets } from './fake-ws';
import { scenarios, type ScenarioName } from './scenarios';
import { startTestCompanion, type TestCompanion } from './companion';
import type { CompanionOptions } from '../../companion/server';
import { runCodex, type CodexRun, type CodexRunOptions } from './codex';

export interface CaptureRun {
  run: CodexRun;
  upstream: FakeUpstream;
  companion: TestCompanion;
  /** Captured exchanges, oldest first. */
  summaries: ExchangeSummary[];
  records: ExchangeRecord[];
  dispose(): Promise<void>;
}

export async function captureRun(
  scenario: ScenarioName,
  opts: Partial<CodexRunOptions> = {},
  companionOpts: Partial<CompanionOptions> = {},
): Promise<CaptureRun> {
  const upstream = await startFakeUpstream({ scenario: scenarios[scenario]() });
  // The built-in provider talks over the WebSocket first: the fake answers it with the same scenario.
  if (opts.provider === 'builtin') acceptWebSockets(upstream, { scenario: scenarios[scenario]() });
  const companion = await startTestCompanion({ apiUpstream: upstream.baseUrl, ...companionOpts });
  const run = await runCodex({ prompt: 'run echo hi', baseUrl: `${companion.url}/v1`, ...opts });
  await companion.idle();
  const summaries = (await companion.store.list({ limit: 1000 })).items.reverse();
  const records = (await Promise.all(summaries.map((s) => companion.store.get(s.id)))) as ExchangeRecord[];
  return {
    run,
    upstream,
    companion,
    summaries,
    records,
    dispose: async () => {
      run.cleanup();
      await companion.dispose();
      await upstream.close();
    },
  };
}
