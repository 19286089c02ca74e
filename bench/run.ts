/**
 * `npm run bench`: what the companion costs Codex, measured side by side in one run: the same
 * requests sent straight to the fake upstream and through a companion, interleaved (ABAB) so
 * machine noise hits both alike. Prints ratios; asserts nothing.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { startFakeUpstream, type Plan } from '../tests/support/fake-upstream';
import { tempHome } from '../tests/support/companion';
import { startCli } from '../tests/support/cli';
import { freePort } from '../tests/support/ports';
import { fakeKey } from '../tests/support/keys';
import { encodeSse, message, response } from '../tests/support/sse';
import { codexSession } from '../tests/support/session';
import { measureStorage } from '../tests/support/storage-ratio';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const KEY = fakeKey('bench-0123456789');

/** One request; returns time to first body byte and to the end. */
async function timed(url: string, body: string): Promise<{ ttfb: number; total: number; bytes: number }> {
  const t0 = performance.now();
  const res = await request(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body,
  });
  let ttfb = 0;
  let bytes = 0;
  for await (const chunk of res.body) {
    if (!ttfb) ttfb = performance.now() - t0;
    bytes += (chunk as Buffer).length;
  }
  return { ttfb, total: performance.now() - t0, bytes };
}

async function compare(name: string, plan: () => Plan, body: string, runs: number, concurrency = 1) {
  const up = await startFakeUpstream({ scenario: plan });
  // The built companion, as users run it (its analysis runs in a worker thread).
  const home = tempHome('codex-devtools-bench-');
  const port = await freePort();
  const cli = startCli(['--port', String(port), '--home', home, '--upstream', up.baseUrl, '--log-level', 'warn']);
  await cli.waitFor('listening on');
  const c = { url: `http://127.0.0.1:${port}` };
  const direct: { ttfb: number; total: number }[] = [];
  const via: { ttfb: number; total: number }[] = [];
  const batch = (url: string) => Promise.all(Array.from({ length: concurrency }, () => timed(url, body)));
  for (let i = 0; i < 3; i++) await Promise.all([batch(`${up.baseUrl}/responses`), batch(`${c.url}/v1/responses`)]); // warm up
  for (let i = 0; i < runs; i++) {
    for (const [arr, url] of (i % 2
      ? [
          [via, c.url + '/v1'],
          [direct, up.baseUrl],
        ]
      : [
          [direct, up.baseUrl],
          [via, c.url + '/v1'],
        ]) as [typeof direct, string][]) {
      const t0 = performance.now();
      const results = await batch(`${url}/responses`);
      arr.push({ ttfb: median(results.map((r) => r.ttfb)), total: performance.now() - t0 });
    }
  }
  await cli.stop();
  fs.rmSync(home, { recursive: true, force: true });
  await up.close();
  const row = (label: string, pick: (x: { ttfb: number; total: number }) => number) => {
    const d = median(direct.map(pick));
    const v = median(via.map(pick));
    return `  ${label.padEnd(22)} direct ${fmt(d).padStart(11)}   via companion ${fmt(v).padStart(11)}   ratio ${(v / d).toFixed(2)}   (p95 ${(p95(via.map(pick)) / p95(direct.map(pick))).toFixed(2)})`;
  };
  console.log(`${name} (${runs} runs${concurrency > 1 ? `, ${concurrency} at once` : ''})`);
  console.log(row('time to first byte', (x) => x.ttfb));
  console.log(row('time to last byte', (x) => x.total));
}

async function storageRatio(n: number) {
  const home = tempHome('codex-devtools-bench-');
  const { naive, stored } = await measureStorage(home, n);
  fs.rmSync(home, { recursive: true, force: true });
  console.log(`storage for a ${n}-request session in Codex's pattern`);
  console.log(
    `  plain JSONL ${(naive / 1e6).toFixed(1)} MB   store ${(stored / 1e6).toFixed(2)} MB   ratio ${(stored / naive).toFixed(4)} (budget 0.05)`,
  );
}

const typicalBody = JSON.stringify(codexSession(1)[0].body);
// A model-like pace: the first event after 150 ms, then a delta every 5 ms.
const pacedSse = () =>
  ({
    kind: 'sse',
    events: response([message('A typical answer of a few hundred characters. '.repeat(8), { pieces: 60 })]),
    chunking: 'per-event',
    chunkDelayMs: 5,
    hold: { beforeChunk: 0, until: new Promise<void>((r) => setTimeout(r, 150)) },
  }) as Plan;
const typicalSse = () =>
  ({ kind: 'sse', events: response([message('A typical answer of a few hundred characters. '.repeat(8), { pieces: 120 })]) }) as Plan;
const bigChunk = encodeSse([{ type: 'response.output_text.delta', delta: 'x'.repeat(16 * 1024) }]);
const bigStream = () => ({ kind: 'raw', awaitDrain: true, chunks: Array.from({ length: 1200 }, () => bigChunk) }) as Plan;

console.log(`codex-devtools bench — ${new Date().toISOString()}, node ${process.version}\n`);
await compare(
  `typical turn, instant upstream: ${(typicalBody.length / 1024).toFixed(0)} KB request, 120 deltas at once`,
  typicalSse,
  typicalBody,
  40,
);
await compare('typical turn, model-paced upstream: first event at 150 ms, 60 deltas 5 ms apart', pacedSse, typicalBody, 12);
await compare('the same, 8 turns at once', typicalSse, typicalBody, 15, 8);
await compare(`large stream: ${((bigChunk.length * 1200) / 1e6).toFixed(0)} MB of SSE`, bigStream, '{}', 6);
await storageRatio(200);
