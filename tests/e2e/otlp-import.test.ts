/**
 * Imported history and the OTLP export: the built companion captures a real Codex run, then
 * `codex-devtools import` brings in rollouts through it. With `--otlp-include-imported` the
 * imported exchanges go out as spans with the rollouts' own times and the metrics stay as live
 * traffic left them; without it nothing imported leaves the machine.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../../companion/cli/client';
import { ImportReportSchema, type ImportReport } from '../../companion/protocol/api';
import type { ExchangeRecord, ExchangeSummary } from '../../companion/protocol/exchange';
import { readTextFile, rolloutFiles } from '../../companion/store/import/files';
import { parseRollout } from '../../companion/store/import/rollout';
import { cli, startCli, type RunningCli } from '../support/cli';
import { runCodex, type CodexRun } from '../support/codex';
import { tempHomes } from '../support/companion';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedMetric } from '../support/otlp-receiver';
import { freePort } from '../support/ports';
import { scenarios } from '../support/scenarios';

/** A real rollout (one turn with a remote compaction) and the older shape, from 2025 (turnless exchanges). */
const CODEX_HOMES = ['compaction-remote', 'legacy-fork'].map((d) => path.resolve('tests/fixtures/rollouts', d));
const FAST = { OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_METRIC_EXPORT_INTERVAL: '300', OTEL_EXPORTER_OTLP_TIMEOUT: '1500' };
const METRICS = ['gen_ai.client.token.usage', 'gen_ai.client.operation.duration', 'codex.client.cost'];

const home = tempHomes();

/** What the companion's own parser makes of the rollouts: the records an import stores. */
const rolloutRecords: ExchangeRecord[] = CODEX_HOMES.flatMap(rolloutFiles).flatMap(
  (f) => parseRollout(readTextFile(f), { file: path.basename(f) }).records,
);

/** The imported turns (a turnless exchange is a turn of its own) and their exchanges. */
const rolloutTurns = new Map<string, ExchangeRecord[]>();
for (const rec of rolloutRecords) {
  const key = `${rec.threadId}/${rec.turnId ?? rec.id}`;
  rolloutTurns.set(key, [...(rolloutTurns.get(key) ?? []), rec]);
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The latest export's points of each metric, in a stable order. */
function metricPoints(metrics: ReceivedMetric[]): Record<string, ReceivedMetric['points'] | null> {
  const sorted = (m: ReceivedMetric | undefined) =>
    m ? [...m.points].sort((a, b) => JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes))) : null;
  return Object.fromEntries(METRICS.map((name) => [name, sorted(metrics.filter((m) => m.name === name).at(-1))]));
}

interface Setup {
  receiver: OtlpReceiver;
  upstream: FakeUpstream;
  companion: RunningCli;
  port: number;
  home: string;
  startedAt: number;
  run: CodexRun;
  live: ExchangeSummary[];
  importRollouts(): Promise<ImportReport>;
  dispose(): Promise<void>;
}

/** The built companion exporting to a loopback receiver, after one real Codex run through it. */
async function exportingCompanion(extra: string[]): Promise<Setup> {
  const receiver = await startOtlpReceiver();
  const upstream = await startFakeUpstream({ scenario: scenarios.text() });
  const h = home();
  const port = await freePort();
  const startedAt = Date.now();
  const companion = startCli(
    ['start', '--port', String(port), '--home', h, '--upstream', upstream.baseUrl, '--otlp-endpoint', receiver.url, ...extra],
    { env: FAST },
  );
  await companion.waitFor('listening on');
  const run = await runCodex({ prompt: 'run echo hi', baseUrl: `http://127.0.0.1:${port}/v1` });
  const listed = await callApi(port, h, 'GET', '/exchanges?limit=100');
  const live = (listed.json as { items: ExchangeSummary[] }).items.filter((s) => s.kind === 'model');
  return {
    receiver,
    upstream,
    companion,
    port,
    home: h,
    startedAt,
    run,
    live,
    importRollouts: async () => {
      const r = await cli(['import', ...CODEX_HOMES.flatMap((d) => ['--codex-home', d]), '--home', h, '--port', String(port), '--json']);
      expect(r.stderr).toBe('');
      return ImportReportSchema.parse(JSON.parse(r.stdout));
    },
    dispose: async () => {
      await companion.stop();
      run.cleanup();
      await upstream.close();
      await receiver.close();
    },
  };
}

const imported = (r: OtlpReceiver) => r.spans.filter((s) => s.attributes['codex.imported'] === true);
const chat = (r: OtlpReceiver) => r.spans.filter((s) => s.name.startsWith('chat '));
const metricExports = (r: OtlpReceiver) => r.requests.filter((q) => q.path === '/v1/metrics').length;

describe('--otlp-include-imported', () => {
  let s: Setup;
  let before: ReturnType<typeof metricPoints>;
  let report: ImportReport;
  beforeAll(async () => {
    s = await exportingCompanion(['--otlp-include-imported']);
    // The live run's metrics are in once an export counts every live exchange's duration.
    await until(() => {
      const d = metricPoints(s.receiver.metrics)['gen_ai.client.operation.duration'];
      return d !== null && d.reduce((a, p) => a + p.count!, 0) === s.live.length;
    }, "the live run's metrics");
    before = metricPoints(s.receiver.metrics);
    report = await s.importRollouts();
  });
  afterAll(() => s?.dispose());

  it('sends each imported exchange as a chat span with the times of its rollout', async () => {
    expect(s.run.exitCode).toBe(0);
    expect(report.added).toBe(rolloutRecords.length);
    await until(() => imported(s.receiver).filter((x) => x.name.startsWith('chat ')).length === rolloutRecords.length, 'imported spans');
    for (const rec of rolloutRecords) {
      const span = chat(s.receiver).find((x) => x.attributes['codex.exchange.id'] === rec.id)!;
      expect(span.attributes).toMatchObject({ 'codex.imported': true, 'gen_ai.usage.input_tokens': rec.usage!.inputTokens });
      expect(span.startTimeUnixNano).toBe(BigInt(rec.startedAt) * 1_000_000n);
      expect(span.endTimeUnixNano).toBe(BigInt(rec.endedAt!) * 1_000_000n);
      // Written before this companion started: the rollout's time, not the time of the export.
      expect(rec.startedAt).toBeLessThan(s.startedAt);
    }
  });

  it('gives each imported turn its own root span, marked imported, spanning its exchanges', async () => {
    const roots = () => imported(s.receiver).filter((x) => x.name.startsWith('invoke_agent '));
    await until(() => roots().length === rolloutTurns.size, 'imported root spans');
    expect(rolloutTurns.size).toBeGreaterThan(1);
    for (const recs of rolloutTurns.values()) {
      const span = chat(s.receiver).find((x) => x.attributes['codex.exchange.id'] === recs[0].id)!;
      const root = roots().find((x) => x.spanId === span.parentSpanId)!;
      expect(root.traceId).toBe(span.traceId);
      expect(root.startTimeUnixNano).toBe(BigInt(Math.min(...recs.map((r) => r.startedAt))) * 1_000_000n);
      expect(root.endTimeUnixNano).toBe(BigInt(Math.max(...recs.map((r) => r.endedAt!))) * 1_000_000n);
      expect(root.attributes['codex.turn.exchanges']).toBe(recs.length);
    }
  });

  it('changes no metric data point: metrics count live traffic only', async () => {
    await until(() => imported(s.receiver).length === rolloutRecords.length + rolloutTurns.size, 'every imported span');
    // Two more export rounds after the imported spans went out: the reader has seen everything.
    const seen = metricExports(s.receiver);
    await until(() => metricExports(s.receiver) >= seen + 2, 'two more metric exports');
    expect(before['gen_ai.client.token.usage']).not.toBeNull();
    expect(metricPoints(s.receiver.metrics)).toEqual(before);
  });

  it('leaves the live spans as they were: one per live exchange, none marked imported', () => {
    const live = chat(s.receiver).filter((x) => x.attributes['codex.imported'] === undefined);
    expect(live.map((x) => x.attributes['codex.exchange.id']).sort()).toEqual(s.live.map((x) => x.id).sort());
  });
});

describe('without --otlp-include-imported', () => {
  let s: Setup;
  let report: ImportReport;
  beforeAll(async () => {
    s = await exportingCompanion([]);
    report = await s.importRollouts();
    // Stopping sends everything the export still holds.
    expect(await s.companion.stop()).toBe(0);
  });
  afterAll(() => s?.dispose());

  it('exports nothing imported, while the live exchanges are exported', () => {
    expect(s.run.exitCode).toBe(0);
    expect(report.added).toBe(rolloutRecords.length);
    expect(
      chat(s.receiver)
        .map((x) => x.attributes['codex.exchange.id'])
        .sort(),
    ).toEqual(s.live.map((x) => x.id).sort());
    expect(imported(s.receiver)).toEqual([]);
    const ids = new Set(rolloutRecords.map((r) => r.id));
    expect(s.receiver.spans.filter((x) => ids.has(x.attributes['codex.exchange.id'] as string))).toEqual([]);
  });
});
