/**
 * @module The demo history from the real Codex CLI 0.169.0 traffic in tests/fixtures (HTTP and
 * WebSocket, code mode, sub-agents v1 and v2, a local compaction, reasoning, rate-limit headers
 * and a 429), replayed through the capture worker exactly as live traffic goes (capture,
 * assembly, nicknames, store), as JSONL in the export's record schema, which `codex-devtools
 * import FILE.jsonl` reads. `scripts/make-demo.ts` writes it to companion/demo/demo-traffic.jsonl.
 *
 * Reproducible: the clock is a fixed timeline, ids are derived from content, and the analysis is
 * left out (the import runs it, with the user's prices). Credentials never get in: authorization
 * and cookie headers are not replayed, and the script scans the output before writing it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import type { FromWorker, ToWorker } from '../../companion/capture/messages';
import type { HeaderPairs } from '../../companion/http/headers';
import { ExchangeRecordSchema, type ExchangeRecord, type Route } from '../../companion/protocol/exchange';
import { toJsonl } from '../../companion/store/export/jsonl';
import { Store } from '../../companion/store/store';
import { createLogger } from '../../companion/lib/log';
import { serve } from '../../companion/worker';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const DEMO_FILE = path.join(ROOT, 'companion/demo/demo-traffic.jsonl');

/** Runs of one Codex invocation each, in the order they are laid out on the timeline. */
const RUNS: { name: string; files: string[] }[] = [
  { name: 'text', files: ['unelided/fallback-text-1'] },
  { name: 'codemode', files: ['unelided/codemode-tool-call-1', 'unelided/codemode-tool-call-2'] },
  { name: 'subagentv2', files: ['unelided/codemode-subagent-v2-1', 'unelided/codemode-subagent-v2-2', 'unelided/codemode-subagent-v2-3'] },
  {
    name: 'compaction',
    files: ['unelided/fallback-compaction-local-1', 'unelided/fallback-compaction-local-2', 'unelided/fallback-compaction-local-3'],
  },
  { name: 'reasoning', files: ['codex-0.169/c-reasoning-1', 'codex-0.169/c-reasoning-2'] },
  {
    name: 'subagentv1',
    files: ['codex-0.169/e-subagent-v1-1', 'codex-0.169/e-subagent-v1-2', 'codex-0.169/e-subagent-v1-3', 'codex-0.169/e-subagent-v1-4'],
  },
  { name: 'wstext', files: ['codex-0.169/g-ws-text-1'] },
  { name: 'wstool', files: ['codex-0.169/g-ws-tool-call-1'] },
  { name: 'limits', files: ['codex-0.169/d-ratelimit-headers-ok-1'] },
  { name: 'limit429', files: ['codex-0.169/d-http429-usage-limit-1'] },
];

/** The timeline: runs 7 minutes apart (past the cache lifetime), requests of a run 6 s apart, events 40 ms apart. */
const T0 = Date.UTC(2026, 10, 30, 9, 0, 0);
const RUN_GAP = 7 * 60_000;
const STEP_GAP = 6000;
const EVENT_GAP = 40;

const ROUTE: Route = { profileId: 'default', upstream: 'https://api.openai.com/v1', auth: 'apikey', modelRequested: null, modelSent: null };
const NOT_REPLAYED = new Set(['authorization', 'cookie', 'content-length', 'host']);

// Fixture bodies are open-ended JSON read field by field: `any` on purpose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Fixture = any;

/**
 * The fake upstream numbered its responses from resp_001 in every run; real response ids are
 * unique, and the store and the import key on them. Each run gets its own prefix.
 */
function loadRun(run: { name: string; files: string[] }): Fixture[] {
  return run.files.map((f) => {
    const text = fs.readFileSync(path.join(ROOT, 'tests/fixtures', `${f}.json`), 'utf8');
    return JSON.parse(text.replaceAll('resp_', `resp_${run.name}_`));
  });
}

const pairs = (h: Record<string, string>): HeaderPairs =>
  Object.entries(h)
    .map(([k, v]): [string, string] => [k.toLowerCase(), String(v)])
    .filter(([k]) => !NOT_REPLAYED.has(k));

/** The timeline's clock: capture stamps times with Date.now(), which `makeDemo` points here while it runs. */
let clock = T0;

function sse(events: { type: string }[]): Buffer[] {
  return events.map((e) => Buffer.from(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`));
}

function feedHttp(send: (m: ToWorker) => void, fx: Fixture, id: string): void {
  const url = new URL(fx.request.url ?? fx.request.path ?? '/v1/responses', 'http://127.0.0.1');
  const body = Buffer.from(JSON.stringify(fx.request.body));
  const res = fx.response_sent_by_fake_upstream;
  send({
    t: 'open',
    id,
    init: {
      id,
      transport: 'http',
      method: fx.request.method ?? 'POST',
      path: url.pathname,
      query: url.search,
      upstreamUrl: ROUTE.upstream + url.pathname.replace(/^\/v1/, ''),
      requestHeaders: pairs(fx.request.headers),
      route: ROUTE,
      startedAt: clock,
    },
  });
  send({ t: 'reqChunk', id, chunk: body });
  send({ t: 'reqEnd', id, bytes: body.length, lost: null });
  clock += 300;
  const isSse = Array.isArray(res.sse_events);
  const headers = { ...res.headers, 'content-type': isSse ? 'text/event-stream' : (res.headers['content-type'] ?? 'application/json') };
  send({ t: 'head', id, status: res.status, headers: pairs(headers), at: clock });
  for (const chunk of isSse ? sse(res.sse_events) : [Buffer.from(JSON.stringify(res.json ?? null))]) {
    send({ t: 'chunk', id, chunk, at: clock });
    clock += EVENT_GAP;
  }
  send({ t: 'end', id, at: clock });
}

function feedWs(send: (m: ToWorker) => void, fx: Fixture, conn: number): void {
  const url = new URL(fx.upgrade_request.url, 'http://127.0.0.1');
  send({
    t: 'wsOpen',
    conn,
    init: {
      path: url.pathname,
      query: url.search,
      upstreamUrl: ROUTE.upstream.replace(/^http/, 'ws') + url.pathname.replace(/^\/v1/, ''),
      handshakeHeaders: pairs(fx.upgrade_request.headers),
      upgradeResponseHeaders: [],
      upgradedAt: clock,
      route: ROUTE,
    },
  });
  for (const f of fx.frames as { dir: string; message?: unknown; reason?: string }[]) {
    if (f.message === undefined) continue;
    clock += f.dir.startsWith('client') ? 500 : EVENT_GAP;
    send({ t: 'wsText', conn, from: f.dir.startsWith('client') ? 'client' : 'server', text: JSON.stringify(f.message), at: clock });
  }
  send({ t: 'wsClose', conn, reason: 'Codex closed the connection', at: clock });
}

/** Same content, same id: sortable by start like captured ids (capture/ids.ts), stable across runs of this script. */
function stableId(r: ExchangeRecord, n: number): string {
  const hash = createHash('sha256')
    .update(`${r.sessionId}\u0000${r.responseId ?? ''}\u0000${n}`)
    .digest('hex')
    .slice(0, 8);
  return `${r.startedAt.toString(36).padStart(9, '0')}${n.toString(36).padStart(3, '0')}${hash}`;
}

/** What the bundle holds of a record: the capture, not its analysis (recomputed on import), no credentials. */
function bundled(r: ExchangeRecord, id: string): ExchangeRecord {
  return ExchangeRecordSchema.parse({ ...r, id, analysis: undefined, cache: null, costUsd: null });
}

/** The demo history as JSONL, from the fixtures. */
export async function makeDemo(): Promise<string> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-devtools-make-demo-'));
  const realNow = Date.now;
  Date.now = () => clock;
  try {
    const channel = new MessageChannel();
    const answers = new Map<number, (m: Extract<FromWorker, { t: 'answer' }>) => void>();
    const receive = (m: FromWorker): void => {
      if (m.t === 'batch') m.messages.forEach(receive);
      else if (m.t === 'answer') answers.get(m.n)?.(m);
    };
    channel.port2.on('message', receive);
    let n = 0;
    const ask = (m: (n: number) => ToWorker) =>
      new Promise<Extract<FromWorker, { t: 'answer' }>>((resolve) => {
        const k = ++n;
        answers.set(k, resolve);
        channel.port2.postMessage(m(k));
      });
    const runtime = await serve(channel.port1, {
      home,
      maxCaptureBytes: 64 * 1024 * 1024,
      configuredWindows: {},
      capturing: true,
      logLevel: 'warn',
      addonModules: [],
      maxStoreBytes: Number.MAX_SAFE_INTEGER,
      announceImports: false,
    });
    const send = (m: ToWorker) => runtime.handle(m);
    let conn = 0;
    for (const [i, run] of RUNS.entries()) {
      for (const [k, fx] of loadRun(run).entries()) {
        clock = T0 + i * RUN_GAP + k * STEP_GAP;
        if (fx.transport === 'websocket') feedWs(send, fx, ++conn);
        else feedHttp(send, fx, `demo-${run.name}-${k}`);
        await runtime.idle();
      }
    }
    await ask((k) => ({ t: 'query', n: k, q: { q: 'idle' } }));
    await ask((k) => ({ t: 'history', n: k, op: 'close', args: [] }));
    channel.port1.close();
    channel.port2.close();
    const store = Store.open({ home, log: createLogger('warn') });
    const records: ExchangeRecord[] = [];
    for (const s of [...store.summaries()].sort((a, b) => a.startedAt - b.startedAt || a.id.localeCompare(b.id))) {
      const r = await store.get(s.id);
      if (r) records.push(bundled(r, stableId(r, records.length)));
    }
    store.close();
    return toJsonl(records);
  } finally {
    Date.now = realNow;
    fs.rmSync(home, { recursive: true, force: true });
  }
}
