/**
 * Builds `ExchangeRecord`s from captured fixtures by replaying them through the real capture code
 * (`ExchangeFlow`: request body, response head, SSE bytes, end), exactly as live traffic goes,
 * plus helpers to copy a fixture and edit it in one respect. Test-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { analyzeExchange, cacheBrief, previousInChain } from '../../companion/analysis/analyze';
import type { ExchangeRecord, Route } from '../../companion/protocol/exchange';
import { encodeSse, usage as wireUsage, type SseEvent, type UsageSpec } from './sse';
import { replay } from './flows';

export interface Fixture {
  scenario?: string;
  step?: number;
  transport?: string;
  received_at_ms?: number;
  /** The `tokens used` Codex printed at the end of the captured run. */
  tokens_used_printed?: number | null;
  // Request bodies are open-ended JSON that tests read and edit freely: `any` on purpose.
  request?: { method?: string; path?: string; headers: Record<string, string>; body: any };
  response_sent_by_fake_upstream?: { status: number; headers: Record<string, string>; sse_events?: SseEvent[] };
}

export const OLD_FIXTURES = path.resolve('tests/fixtures/codex-0.169');
export const UNELIDED_FIXTURES = path.resolve('tests/fixtures/unelided');

/** A fresh, deep copy of a fixture file (edit it freely). */
export function loadFixture(file: string): Fixture {
  const full = path.isAbsolute(file)
    ? file
    : fs.existsSync(path.join(UNELIDED_FIXTURES, file))
      ? path.join(UNELIDED_FIXTURES, file)
      : path.join(OLD_FIXTURES, file);
  return JSON.parse(fs.readFileSync(full, 'utf8')) as Fixture;
}

/** Every HTTP model-request fixture (WebSocket captures have frames, not one request). */
export function httpFixtureFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'tool-sets.json')
    .map((f) => path.join(dir, f))
    .filter((f) => {
      const fx = JSON.parse(fs.readFileSync(f, 'utf8')) as Fixture;
      return fx.transport === 'http' && !!fx.request && !!fx.response_sent_by_fake_upstream;
    });
}

export interface RecordOptions {
  id?: string;
  /** Epoch ms the request started (default: the fixture's `received_at_ms`, else a fixed date). */
  startedAt?: number;
  /** How long the response took (default 1 s). */
  durationMs?: number;
  route?: Partial<Route>;
}

/** Replays a fixture through `ExchangeFlow` (tests/support/flows.ts) and returns the record it makes. */
export async function recordFrom(fx: Fixture, opts: RecordOptions = {}): Promise<ExchangeRecord> {
  if (!fx.request || !fx.response_sent_by_fake_upstream) throw new Error('fixture has no HTTP request and response');
  const startedAt = opts.startedAt ?? fx.received_at_ms ?? Date.UTC(2026, 10, 29, 12, 0, 0);
  const res = fx.response_sent_by_fake_upstream;
  const record = await replay(
    {
      method: fx.request.method,
      url: (fx.request.path ?? '/v1/responses').split('?')[0],
      headers: fx.request.headers,
      body: fx.request.body,
    },
    { status: res.status, headers: res.headers, bytes: Buffer.from(res.sse_events ? encodeSse(res.sse_events) : '') },
    { id: opts.id ?? `x_${fx.scenario ?? 'fixture'}_${fx.step ?? 0}`, startedAt, route: opts.route },
  );
  // The flow stamps its own clock on the ends; tests need times relative to the fixture's start.
  const duration = opts.durationMs ?? 1000;
  return { ...record, firstByteAt: startedAt + Math.min(100, duration), endedAt: startedAt + duration };
}

/** Loads and replays a fixture file. */
export async function recordOf(file: string, opts: RecordOptions = {}): Promise<ExchangeRecord> {
  return recordFrom(loadFixture(file), opts);
}

/** Replaces the usage the fake upstream reported (in every event that carries one). */
export function withUsage(fx: Fixture, spec: UsageSpec): Fixture {
  for (const e of fx.response_sent_by_fake_upstream?.sse_events ?? []) {
    const r = e.response as { usage?: unknown } | undefined;
    if (r && r.usage !== undefined) r.usage = wireUsage(spec);
  }
  return fx;
}

/** The usage a fixture's response reported. */
export function reportedUsage(fx: Fixture): {
  input_tokens: number;
  output_tokens: number;
  input_tokens_details: { cached_tokens: number };
} {
  const done = (fx.response_sent_by_fake_upstream?.sse_events ?? []).find((e) => e.type === 'response.completed');
  return (done?.response as { usage: ReturnType<typeof reportedUsage> }).usage;
}

/** Fixture files grouped by run: the file name without its `-<step>.json` suffix. */
export function runsOf(files: string[]): Map<string, string[]> {
  const runs = new Map<string, string[]>();
  for (const f of [...files].sort()) {
    const run = path.basename(f).replace(/-\d+\.json$/, '');
    runs.set(run, [...(runs.get(run) ?? []), f]);
  }
  return runs;
}

/**
 * Records of a run's fixtures, in step order, a few seconds apart (ids `<run>-<step>`). ChatGPT
 * login captures (`h-chatgpt-*`) are routed as ChatGPT traffic, as the companion would route them.
 */
export async function runRecords(run: string, files: string[], start = Date.UTC(2026, 10, 29, 12, 0, 0)): Promise<ExchangeRecord[]> {
  const out: ExchangeRecord[] = [];
  for (const [i, f] of files.entries()) {
    const fx = loadFixture(f);
    const auth = run.startsWith('h-chatgpt') ? 'chatgpt' : 'apikey';
    out.push(await recordFrom(fx, { id: `${run}-${i + 1}`, startedAt: start + i * 5000, durationMs: 2000, route: { auth } }));
  }
  return out;
}

/**
 * Runs the analysis over records in order, as the companion does on capture: each against the
 * previous exchange of its chain. Returns the records with `analysis`, `cache` and `costUsd` set.
 */
export function analyseAll(records: ExchangeRecord[], options: Parameters<typeof analyzeExchange>[2] = {}): ExchangeRecord[] {
  const done: ExchangeRecord[] = [];
  for (const r of [...records].sort((a, b) => a.startedAt - b.startedAt)) {
    const analysis = analyzeExchange(r, previousInChain(done, r), options);
    done.push({ ...r, analysis, cache: cacheBrief(analysis), costUsd: analysis.costUsd });
  }
  return done;
}
