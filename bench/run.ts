/**
 * `npm run bench`: what the companion costs Codex, measured side by side in one run: the same
 * requests sent straight to the fake upstream and through the built companion, interleaved (ABAB)
 * so machine noise hits both alike. Prints each budget of the forward path beside its figure;
 * asserts nothing. The cost of the OTLP export is measured the same way: a companion exporting
 * to a loopback endpoint beside one that does not, interleaved.
 * `BENCH_CLI=/path/to/cli.mjs` benchmarks another build (e.g. an older commit).
 * `BENCH_GROWTH_TO=4000` sets how far the steady memory-growth run goes (default 10,000 exchanges).
 * `BENCH_ONLY=memory` stops after the memory figures (they do not depend on machine load).
 * Timing figures are of companions warmed up first (see WarmUp), as a companion running all day
 * is; a fresh companion's first turns are printed beside them.
 * Each timing figure is also measured for a bare node:http pass-through (bench/bare-proxy.mjs),
 * the least any proxy adds on this machine, so a budget can be read against what is possible,
 * and for a second companion with capture paused (it forwards, records nothing): the forward
 * path's own cost, apart from what capture adds to it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { startFakeUpstream, type FakeUpstream, type Plan } from '../tests/support/fake-upstream';
import { tempHome } from '../tests/support/companion';
import { freePort } from '../tests/support/ports';
import { fakeKey } from '../tests/support/keys';
import { encodeSse, message, response } from '../tests/support/sse';
import { codexSession } from '../tests/support/session';
import { measureStorage } from '../tests/support/storage-ratio';
import { startOtlpSink } from './otlp-sink';

const CLI = path.resolve(process.env.BENCH_CLI ?? 'dist/companion/cli.mjs');
const GROWTH_TO = Number(process.env.BENCH_GROWTH_TO ?? 10_000);
/** How far the overload run goes. */
const FLOOD_TO = 4000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const KEY = fakeKey('bench-0123456789');
// Idle sockets are closed well before the server's 5 s keep-alive: reusing one the server is
// closing at that moment fails with ECONNRESET, which would measure the race, not the proxy.
const agent = new Agent({ connections: 64, keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 });

/** One request; returns time to first body byte and to the end. */
async function timed(url: string, body: string | Buffer): Promise<{ ttfb: number; total: number; bytes: number }> {
  const t0 = performance.now();
  const res = await request(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body,
    dispatcher: agent,
  });
  let ttfb = 0;
  let bytes = 0;
  for await (const chunk of res.body) {
    if (!ttfb) ttfb = performance.now() - t0;
    bytes += (chunk as Buffer).length;
  }
  return { ttfb, total: performance.now() - t0, bytes };
}

interface Companion {
  url: string;
  pid: number;
  /** `GET /api/status`. */
  status(): Promise<{
    droppedCaptureChunks?: number;
    export?: { traces: { exported: number; failures: number; dropped: number } | null } | null;
  }>;
  /** Resolves when the companion has stored `n` exchanges and written everything. */
  settled(n: number): Promise<void>;
  /** Pauses capture (`POST /api/capture/pause`): forwarding goes on, nothing is recorded. */
  pause(): Promise<void>;
  /** Resolves once capture has stored all it was sent: no write waiting, the count steady. */
  quiet(): Promise<void>;
  stop(): Promise<void>;
}

/** The built companion, as users run it, in its own process (so its RSS is its own). */
async function startCompanion(upstream: string, extra: { args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<Companion> {
  const home = tempHome('codex-devtools-bench-');
  const port = await freePort();
  const args = [CLI, '--port', String(port), '--home', home, '--upstream', upstream, '--log-level', 'warn', ...(extra.args ?? [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...extra.env } });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`companion did not start:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      if (!stopping) console.error(`the companion exited during the bench (${code ?? signal}); its output:\n${out.slice(-4000)}`);
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const auth = () => ({ authorization: `Bearer ${fs.readFileSync(path.join(home, 'token'), 'utf8').trim()}` });
  const status = () => request(`${url}/api/status`, { headers: auth(), dispatcher: agent });
  return {
    url,
    pid: child.pid!,
    status: async () => (await (await status()).body.json()) as Awaited<ReturnType<Companion['status']>>,
    settled: async (n) => {
      for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(200)) {
        const res = await status();
        // A 503 says the capture worker is still busy with the backlog the run left it: ask again.
        const s = (await res.body.json()) as { store?: { exchanges: number; pendingWrites: number } };
        if (res.statusCode === 200 && s.store && s.store.exchanges >= n && s.store.pendingWrites === 0) return;
      }
      console.error(`the companion did not store ${n} exchanges within two minutes`);
    },
    quiet: async () => {
      let last = -1;
      for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(100)) {
        const res = await status();
        const s = (await res.body.json()) as { store?: { exchanges: number; pendingWrites: number } };
        if (res.statusCode !== 200 || !s.store) continue;
        if (s.store.pendingWrites === 0 && s.store.exchanges === last) return;
        last = s.store.exchanges;
      }
      console.error('the companion did not fall quiet within two minutes');
    },
    pause: async () => {
      const res = await request(`${url}/api/capture/pause`, { method: 'POST', headers: auth(), dispatcher: agent });
      const state = (await res.body.json()) as { paused?: boolean };
      if (!state.paused) throw new Error(`the companion did not pause capture (${res.statusCode})`);
    },
    stop: async () => {
      stopping = true;
      child.kill('SIGKILL');
      await exited;
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The yardstick proxy (bench/bare-proxy.mjs) in a process of its own. */
async function startBareProxy(upstreamOrigin: string): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.resolve('bench/bare-proxy.mjs'), String(port), upstreamOrigin], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => d.toString().includes('listening on') && resolve()));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** Resident memory of a process, all threads (VmRSS). */
function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Side {
  ttfb: number;
  total: number;
}

/** One side of a comparison: where its requests go (a base URL that `/responses` follows) and its label. */
interface Target {
  label: string;
  base: string;
}

/**
 * What runs before a comparison is measured: `rounds` sent through both targets, then `settle`
 * (waiting until capture has stored them). A companion runs all day; without this the medians
 * are a fresh process's, its code not yet compiled and the tokenizer loading in its first turns
 * (the bench prints a fresh companion's first turns on their own).
 */
interface WarmUp {
  rounds: number;
  settle?: () => Promise<void>;
}

/**
 * The same requests to two targets, interleaved (ABAB, the order flipped each run); `direct` is
 * the baseline and `via` the one whose cost is measured.
 */
async function compare(
  up: FakeUpstream,
  targets: [direct: Target, via: Target],
  name: string,
  plan: () => Plan,
  body: string,
  runs: number,
  concurrency = 1,
  warm: WarmUp = { rounds: 3 },
): Promise<{ direct: Side; via: Side }> {
  up.setScenario(plan);
  const [a, b] = targets;
  const direct: Side[] = [];
  const via: Side[] = [];
  const batch = (base: string) => Promise.all(Array.from({ length: concurrency }, () => timed(`${base}/responses`, body)));
  for (let i = 0; i < warm.rounds; i++) await Promise.all([batch(a.base), batch(b.base)]);
  await warm.settle?.();
  for (let i = 0; i < runs; i++) {
    const order: [Side[], string][] = [
      [direct, a.base],
      [via, b.base],
    ];
    if (i % 2) order.reverse();
    for (const [arr, base] of order) {
      const t0 = performance.now();
      const results = await batch(base);
      arr.push({ ttfb: median(results.map((r) => r.ttfb)), total: performance.now() - t0 });
    }
    up.requests.length = 0; // the fake keeps every request; the bench does not need them
  }
  const d = { ttfb: median(direct.map((x) => x.ttfb)), total: median(direct.map((x) => x.total)) };
  const v = { ttfb: median(via.map((x) => x.ttfb)), total: median(via.map((x) => x.total)) };
  const [la, lb] = [a.label, b.label];
  console.log(`${name} (${runs} runs${concurrency > 1 ? `, ${concurrency} at once` : ''})`);
  console.log(
    `  time to first byte  ${la} ${fmt(d.ttfb).padStart(10)}   ${lb} ${fmt(v.ttfb).padStart(10)}   added ${fmt(v.ttfb - d.ttfb)}`,
  );
  console.log(
    `  total time          ${la} ${fmt(d.total).padStart(10)}   ${lb} ${fmt(v.total).padStart(10)}   ratio ${(v.total / d.total).toFixed(2)}`,
  );
  return { direct: d, via: v };
}

/** `n` exchanges through the companion, `concurrency` at a time. */
/** Exchanges `from` to `to`, in batches of 50, each stored before the next is sent. */
async function driveSteady(c: Companion, body: string | Buffer, from: number, to: number): Promise<void> {
  for (let n = from; n < to; n += 50) {
    await drive(c, body, Math.min(50, to - n));
    up.requests.length = 0;
    await c.settled(Math.min(n + 50, to));
  }
}

async function drive(c: Companion, body: string | Buffer, n: number, concurrency = 4): Promise<void> {
  let left = n;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0)
        await timed(`${c.url}/v1/responses`, body).catch((err: Error) => {
          socketErrors++;
          console.error(`bench: a request through the companion failed: ${err.message}`);
        });
    }),
  );
}

const typicalBody = JSON.stringify(codexSession(1)[0].body);
/** A long session's turn: the history grows until the body is about 1.5 MB. */
const longBody = (() => {
  const steps = codexSession(400);
  const step = steps.find((s) => JSON.stringify(s.body).length >= 1.5e6) ?? steps[steps.length - 1];
  return JSON.stringify(step.body);
})();
const hugeRequest = (() => {
  const body = JSON.parse(typicalBody) as { input: unknown[] };
  const filler = 'lorem ipsum dolor sit amet '.repeat(40);
  while (JSON.stringify(body).length < 30e6)
    body.input.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: filler.repeat(200) }] });
  return Buffer.from(JSON.stringify(body));
})();

const typicalSse = () =>
  ({ kind: 'sse', events: response([message('A typical answer of a few hundred characters. '.repeat(8), { pieces: 120 })]) }) as Plan;
const pacedSse = () =>
  ({
    kind: 'sse',
    events: response([message('A typical answer of a few hundred characters. '.repeat(8), { pieces: 60 })]),
    chunking: 'per-event',
    chunkDelayMs: 5,
    hold: { beforeChunk: 0, until: new Promise<void>((r) => setTimeout(r, 150)) },
  }) as Plan;
const bigChunk = encodeSse([{ type: 'response.output_text.delta', delta: 'x'.repeat(16 * 1024) }]);
const BIG_CHUNKS = Math.ceil(25e6 / bigChunk.length);
const bigStream = () => ({ kind: 'raw', awaitDrain: true, chunks: Array.from({ length: BIG_CHUNKS }, () => bigChunk) }) as Plan;

// A socket error nobody listens for would end the run; it is counted, shown, and the run goes on.
let socketErrors = 0;
process.on('uncaughtException', (err) => {
  socketErrors++;
  console.error(`bench: uncaught ${err.message}`);
});
console.log(`codex-devtools bench — ${new Date().toISOString()}, node ${process.version}, ${CLI}\n`);
const up = await startFakeUpstream({ scenario: typicalSse });

// Memory first, on a fresh companion: at rest, then under typical traffic capture keeps pace with
// (batches of 50, each stored before the next: a steady state, as a user's sessions make), then
// very large bodies.
const mem = await startCompanion(up.baseUrl);
await sleep(3000);
const rssStart = rss(mem.pid);
up.setScenario(typicalSse);
await driveSteady(mem, typicalBody, 0, 1000);
await sleep(1000);
const rss1k = rss(mem.pid);
// A reading after every 1,000: two readings alone move with the allocator by several MB.
const readings: [exchanges: number, rss: number][] = [[1000, rss1k]];
for (let n = 1000; n < GROWTH_TO; n += 1000) {
  const to = Math.min(n + 1000, GROWTH_TO);
  await driveSteady(mem, typicalBody, n, to);
  await sleep(1000);
  readings.push([to, rss(mem.pid)]);
}
const rssN = readings[readings.length - 1][1];
up.setScenario(bigStream);
await drive(mem, '{}', 10, 1);
up.setScenario(typicalSse);
await drive(mem, hugeRequest, 10, 1);
up.requests.length = 0;
await mem.settled(GROWTH_TO + 20);
await sleep(1000);
const rssBig = rss(mem.pid);
// V8 returns memory some seconds after a burst ends: the same process, left idle.
await sleep(10_000);
const rssBigIdle = rss(mem.pid);
await mem.stop();
// Overload, on another fresh companion: four at a time as fast as an instant upstream answers,
// faster than capture stores. The capture queue fills (its bytes stay resident as the allocator's
// high-water mark) and what does not fit is not captured.
const flood = await startCompanion(up.baseUrl);
await drive(flood, typicalBody, 1000);
up.requests.length = 0;
await flood.settled(1000);
await sleep(1000);
const floodRss1k = rss(flood.pid);
await drive(flood, typicalBody, FLOOD_TO - 1000);
up.requests.length = 0;
await flood.settled(FLOOD_TO);
await sleep(1000);
const floodRssN = rss(flood.pid);
const floodDropped = (await flood.status()).droppedCaptureChunks ?? 0;
await flood.stop();
const growth = (a: number, b: number, n: number) => `${((b - a) / n / 1024).toFixed(2)} KB`;
/** Least-squares slope of the readings: bytes of RSS per exchange. */
const fitted = (points: [number, number][]) => {
  const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
  const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
  const num = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const den = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return `${(num / den / 1024).toFixed(2)} KB`;
};
console.log('resident memory (all threads)');
console.log(`  3 s after start          ${mb(rssStart)}`);
console.log(`  steady, after 1,000 typical      ${mb(rss1k)}`);
console.log(
  `  steady, after ${GROWTH_TO.toLocaleString('en')} typical      ${mb(rssN)}   growth ${fitted(readings)} per exchange ` +
    `(fitted to ${readings.length} readings, ${readings.map(([, r]) => mb(r).replace(' MB', '')).join(' ')} MB; first and last alone: ${growth(rss1k, rssN, GROWTH_TO - 1000)})`,
);
console.log(`  + ten 25 MB answers and ten 30 MB requests   ${mb(rssBig)}   10 s later ${mb(rssBigIdle)}`);
console.log(
  `  overload, four at a time: after 1,000 ${mb(floodRss1k)}, after ${FLOOD_TO.toLocaleString('en')} ${mb(floodRssN)}   growth ${growth(floodRss1k, floodRssN, FLOOD_TO - 1000)} per exchange`,
);
console.log(`  chunks the full capture queue did not capture (forwarded in full, exchange marked incomplete): ${floodDropped}\n`);
if (process.env.BENCH_ONLY === 'memory') {
  await up.close();
  process.exit(socketErrors ? 1 : 0);
}

const c = await startCompanion(up.baseUrl);
const straight: [Target, Target] = [
  { label: 'direct', base: up.baseUrl },
  { label: 'via', base: `${c.url}/v1` },
];
const quiet = await startCompanion(up.baseUrl);
await quiet.pause();
const forwardOnly: [Target, Target] = [straight[0], { label: 'paused', base: `${quiet.url}/v1` }];
const bare = await startBareProxy(new URL(up.baseUrl).origin);
const yardstick: [Target, Target] = [straight[0], { label: 'bare', base: `${bare.url}/v1` }];
/**
 * One budget's workload through the companion, a companion with capture paused, and the bare
 * proxy, each warmed up first (`rounds`, see WarmUp). Each starts once the companion's capture
 * has stored what the one before sent it: a backlog left by one measurement would otherwise take
 * CPU from the next.
 */
const budget = async (name: string, plan: () => Plan, body: string, runs: number, concurrency: number, rounds: number) => {
  await c.quiet();
  const droppedBefore = (await c.status()).droppedCaptureChunks ?? 0;
  const via = await compare(up, straight, name, plan, body, runs, concurrency, { rounds, settle: () => c.quiet() });
  await c.quiet();
  // A figure met by not capturing would be no figure: say whether capture kept up.
  console.log(`  capture dropped ${((await c.status()).droppedCaptureChunks ?? 0) - droppedBefore} chunks meanwhile (a full queue)`);
  const paused = await compare(up, forwardOnly, 'the same through a companion with capture paused', plan, body, runs, concurrency, {
    rounds,
    settle: () => quiet.quiet(),
  });
  const bare = await compare(up, yardstick, 'the same through a bare node:http pass-through', plan, body, runs, concurrency, { rounds });
  return { via, paused, bare };
};
const typicalName = `typical turn, instant upstream: ${(typicalBody.length / 1024).toFixed(0)} KB request, 120 deltas at once`;
// A fresh companion's first turns (its code compiles and the tokenizer loads meanwhile), before any warm-up.
const fresh = await compare(up, straight, `${typicalName}, a fresh companion's first turns`, typicalSse, typicalBody, 40, 1, { rounds: 0 });
const typical = await budget(typicalName, typicalSse, typicalBody, 40, 1, 50);
const long = await budget(`long session: ${(longBody.length / 1e6).toFixed(1)} MB request body`, typicalSse, longBody, 40, 1, 20);
const eight = await budget('typical turn, 8 at once', typicalSse, typicalBody, 20, 8, 10);
await c.quiet();
await compare(up, straight, 'typical turn, model-paced upstream: first event at 150 ms, 60 deltas 5 ms apart', pacedSse, typicalBody, 12);
const big = await budget(`large answer: ${((bigChunk.length * BIG_CHUNKS) / 1e6).toFixed(0)} MB of SSE`, bigStream, '{}', 10, 1, 3);

await c.stop();
await quiet.stop();
bare.stop();

// The OTLP export's cost: two fresh companions side by side, one exporting traces and metrics to a
// loopback endpoint (short timers, so batches and metric rounds go out while requests are measured).
const sink = await startOtlpSink();
const [plain, exporting] = await Promise.all([
  startCompanion(up.baseUrl),
  startCompanion(up.baseUrl, {
    args: ['--otlp-endpoint', sink.url],
    env: { OTEL_BSP_SCHEDULE_DELAY: '200', OTEL_METRIC_EXPORT_INTERVAL: '1000' },
  }),
]);
const otlpPair: [Target, Target] = [
  { label: 'off', base: `${plain.url}/v1` },
  { label: 'on ', base: `${exporting.url}/v1` },
];
const bothQuiet = async () => void (await Promise.all([plain.quiet(), exporting.quiet()]));
const otlpTypical = await compare(up, otlpPair, 'OTLP export off vs on: typical turn, instant upstream', typicalSse, typicalBody, 40, 1, {
  rounds: 50,
  settle: bothQuiet,
});
await bothQuiet();
const otlpEight = await compare(up, otlpPair, 'OTLP export off vs on: typical turn, 8 at once', typicalSse, typicalBody, 20, 8);
// Warm-ups included: every exchange either companion was sent.
const otlpExchanges = 50 + 40 + (3 + 20) * 8;
await exporting.settled(otlpExchanges);
for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(200))
  if (((await exporting.status()).export?.traces?.exported ?? 0) >= otlpExchanges) break;
const otlpTraces = (await exporting.status()).export?.traces;
const sent = (p: string) => sink.received.get(p) ?? { requests: 0, bytes: 0 };
console.log(
  `  exported: ${otlpTraces?.exported ?? 0} spans of ${otlpExchanges} exchanges in ${sent('/v1/traces').requests} requests ` +
    `(${(sent('/v1/traces').bytes / 1024).toFixed(0)} KB), ${sent('/v1/metrics').requests} metric rounds; ` +
    `${otlpTraces?.failures ?? 0} failures, ${otlpTraces?.dropped ?? 0} dropped\n`,
);
await Promise.all([plain.stop(), exporting.stop()]);
await sink.close();
await up.close();

const home = tempHome('codex-devtools-bench-');
const { naive, stored } = await measureStorage(home, 200);
fs.rmSync(home, { recursive: true, force: true });
console.log(
  `storage for a 200-request session in Codex's pattern: plain JSONL ${(naive / 1e6).toFixed(1)} MB, store ${(stored / 1e6).toFixed(2)} MB`,
);

const added = (x: { direct: Side; via: Side }) => fmt(x.via.ttfb - x.direct.ttfb);
const ratio = (x: { direct: Side; via: Side }) => (x.via.total / x.direct.total).toFixed(2);
console.log('\n| budget | figure | capture paused | bare node:http pass-through | target |\n|---|---|---|---|---|');
const row = (label: string, x: typeof typical, f: typeof added, target: string) =>
  console.log(`| ${label} | ${f(x.via)} | ${f(x.paused)} | ${f(x.bare)} | ${target} |`);
row('added TTFB, typical request', typical, added, '≤ 1 ms');
console.log(`| added TTFB, typical request, a fresh companion's first 40 turns | ${added(fresh)} | — | — | — |`);
row('added TTFB, 1.5 MB body', long, added, '≤ 2 ms');
row('added TTFB, 8 at once', eight, added, '≤ 3 ms');
row('total-time ratio, 25 MB answer', big, ratio, '≤ 1.10');
row('total-time ratio, typical request', typical, ratio, '≤ 1.5');
console.log(`| added TTFB, OTLP export on vs off, typical request | ${added(otlpTypical)} | — | — | — |`);
console.log(`| total-time ratio, OTLP export on vs off, typical request | ${ratio(otlpTypical)} | — | — | — |`);
console.log(`| throughput, OTLP export on / off, 8 at once | ${(otlpEight.direct.total / otlpEight.via.total).toFixed(2)} | — | — | — |`);
console.log(`| RSS 3 s after start | ${mb(rssStart)} | — | — | < 80 MB |`);
console.log(`| RSS after 1,000 typical, steady | ${mb(rss1k)} (overload: ${mb(floodRss1k)}) | — | — | < 220 MB |`);
console.log(
  `| growth 1,000 → ${GROWTH_TO.toLocaleString('en')}, steady | ${fitted(readings)}/exchange, fitted (overload, 1,000 → ${FLOOD_TO.toLocaleString('en')}: ${growth(floodRss1k, floodRssN, FLOOD_TO - 1000)}) | — | — | < 2 KB |`,
);
console.log(`| RSS after ten 25 MB answers + ten 30 MB requests | ${mb(rssBig)} (10 s later ${mb(rssBigIdle)}) | — | — | < 350 MB |`);
if (socketErrors) console.log(`\n${socketErrors} socket error(s) during the run (see above)`);
await agent.close();
