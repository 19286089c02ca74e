/**
 * `npm run bench:store`: the SQLite store at scale. A generator writes 100,000 synthetic
 * exchanges straight into the store (500 sessions of 200 requests in Codex's pattern: each
 * request resends its thread's history plus a few new items); then list, filter, full-text
 * search, sort and a session report are timed, start-up is timed, resident memory is compared
 * with an empty store (each in a fresh process), and a 200-request session is measured against
 * plain JSONL after a WAL checkpoint. Prints figures and the budgets; asserts nothing.
 *
 * `BENCH_EXCHANGES=20000 npm run bench:store` for a quicker run; `BENCH_KEEP=1` keeps the databases;
 * `BENCH_HOME=<kept dir>/big` measures a kept history again without writing it (before and after a
 * change, on the same data and in the same conditions).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../companion/lib/log';
import type { ExchangeRecord } from '../companion/protocol/exchange';
import { Store, type ListQuery } from '../companion/store/store';
import { prng } from '../tests/support/chunks';
import { codexSession, stepRecord } from '../tests/support/session';
import { measureStorage } from '../tests/support/storage-ratio';

const log = createLogger('silent');
const TOTAL = Number(process.env.BENCH_EXCHANGES ?? 100_000);
/** A history kept by an earlier run (its `big` directory), measured without writing it again. */
const REUSE = process.env.BENCH_HOME;
const PER_SESSION = 200;
/**
 * A vocabulary of 5,000 word-like strings (Latin syllables, and one word in ten Chinese), drawn
 * with a Zipf-like skew as real text is: common words match many items, rare ones few.
 */
const SYLLABLES = 'ka lo mi ne ru sa to vi ze po qua dre sti fla mon ter gal pri';
const HANZI = '数据库迁移搜索缓存索引查询线程会话预算游标分片副本模型代理提示';
const WORDS = (() => {
  const rnd = prng(3);
  const syl = SYLLABLES.split(' ');
  const out: string[] = [];
  for (let i = 0; i < 5000; i++) {
    const n = 2 + Math.floor(rnd() * 3);
    out.push(
      i % 10 === 9
        ? Array.from({ length: n }, () => HANZI[Math.floor(rnd() * HANZI.length)]).join('')
        : Array.from({ length: n }, () => syl[Math.floor(rnd() * syl.length)]).join(''),
    );
  }
  return out;
})();
const MODELS = ['gpt-5-codex', 'gpt-5', 'gpt-5-mini'];
const DAY = 86_400_000;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Times `fn` over `runs` calls with varying arguments; returns p50 and p99. */
function timed(runs: number, fn: (i: number) => unknown): { p50: number; p99: number } {
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn(i);
    t.push(performance.now() - t0);
  }
  return { p50: pct(t, 0.5), p99: pct(t, 0.99) };
}

/** Each thread's input so far (the generator's state). */
const inputs = new Map<string, unknown[]>();

/** Synthetic exchanges from one captured template; inputs grow per thread as Codex's do. */
async function generate(store: Store, total: number): Promise<void> {
  const rnd = prng(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  // Zipf-like: index ~ 5000^u, so low indexes (common words) come up far more often.
  const word = () => WORDS[Math.min(WORDS.length - 1, Math.floor(Math.pow(WORDS.length, rnd())) - 1)];
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  const template = await stepRecord(codexSession(1)[0]);
  const base = (template.request.body as { input: unknown[] }).input.slice(0, 3);
  const t0 = Date.now() - 60 * DAY;
  let batch: ExchangeRecord[] = [];
  for (let n = 0; n < total; n++) {
    const s = Math.floor(n / PER_SESSION);
    const i = n % PER_SESSION;
    if (i === 0) inputs.clear();
    const sub = i % 10 === 9;
    const thread = sub ? `t-${s}-sub` : `t-${s}`;
    const input = inputs.get(thread) ?? [
      ...base,
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: `${words(8)} #${s}` }] },
    ];
    const call = {
      type: 'function_call',
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: `grep -rn ${word()} src/${n}` }),
      call_id: `c${n}`,
    };
    const next = [...input, call, { type: 'function_call_output', call_id: `c${n}`, output: words(40) }];
    inputs.set(thread, next);
    const startedAt = t0 + (s * PER_SESSION + i) * ((60 * DAY) / total);
    const inputTokens = 9000 + i * 400;
    const miss = rnd() < 0.05;
    const cost = Math.round(rnd() * 5000) / 10_000;
    batch.push({
      ...template,
      id: `b${String(n).padStart(9, '0')}`,
      sessionId: `s-${s}`,
      threadId: thread,
      agent: sub ? { role: 'subagent', name: 'worker', nickname: 'Plato' } : template.agent,
      status: rnd() < 0.03 ? 'failed' : 'completed',
      model: pick(MODELS),
      startedAt,
      endedAt: startedAt + 500 + Math.floor(rnd() * 20_000),
      usage: {
        inputTokens,
        cachedTokens: miss ? 0 : inputTokens - 800,
        cacheWriteTokens: null,
        outputTokens: 80,
        reasoningTokens: 40,
        totalTokens: inputTokens + 80,
      },
      costUsd: cost,
      codexCounted: !sub,
      cache: {
        verdict: miss ? 'miss' : 'hit',
        why: null,
        whyCode: null,
        hitRate: null,
        miss,
        reasons: [],
        expectedCachedTokens: null,
        missedTokens: null,
        missCostUsd: miss ? cost / 2 : null,
      },
      request: { ...template.request, body: { ...(template.request.body as object), input } },
      response: { ...template.response, output: [call] },
    });
    if (batch.length === 500) {
      await store.appendMany(batch);
      batch = [];
      if ((n + 1) % 10_000 === 0) process.stdout.write(`  ${n + 1} written\r`);
    }
  }
  await store.appendMany(batch);
}
/** RSS of a fresh process that opens the store in `home` and answers a list query. */
function rssOf(home: string): number {
  const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--rss', home], { encoding: 'utf8' });
  return Number(out.trim().split('\n').pop());
}

async function main(): Promise<void> {
  if (process.argv[2] === '--rss') {
    const store = Store.open({ home: process.argv[3], log });
    store.list({ limit: 100 });
    store.sessions({ limit: 50 });
    globalThis.gc?.();
    console.log(process.memoryUsage().rss);
    store.close();
    return;
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-devtools-bench-store-'));
  try {
    const home = REUSE ?? path.join(root, 'big');
    const empty = path.join(root, 'empty');
    Store.open({ home: empty, log }).close();
    if (REUSE) console.log(`measuring the history kept in ${REUSE} (${TOTAL} exchanges assumed)`);
    else {
      console.log(`writing ${TOTAL} exchanges…`);
      const w0 = performance.now();
      const writer = Store.open({ home, log, maxBytes: Number.MAX_SAFE_INTEGER });
      await generate(writer, TOTAL);
      writer.close();
      const writeS = (performance.now() - w0) / 1000;
      console.log(
        `wrote ${TOTAL} exchanges in ${writeS.toFixed(1)} s (${Math.round(TOTAL / writeS)}/s); database ${(fs.statSync(path.join(home, 'store.db')).size / 1e6).toFixed(1)} MB`,
      );
    }

    const o0 = performance.now();
    const store = Store.open({ home, log, maxBytes: Number.MAX_SAFE_INTEGER });
    const startup = performance.now() - o0;
    const sessions = TOTAL / PER_SESSION;
    const rnd = prng(11);
    // A fragment from inside a random word of the vocabulary (not only its start).
    const frag = () => {
      const w = [...WORDS[Math.floor(rnd() * WORDS.length)]];
      return w.length > 4 ? w.slice(1, 5).join('') : w.join('');
    };
    const results: [string, { p50: number; p99: number }, number][] = [];
    const run = (name: string, budget: number, fn: (i: number) => unknown, runs = 60) => results.push([name, timed(runs, fn), budget]);
    run('list (newest 100)', 50, () => store.list({ limit: 100 }));
    run(
      'list page 20 (by cursor)',
      50,
      () => {
        let q: ListQuery = { limit: 100 };
        for (let p = 0; p < 2; p++) q = { ...q, cursor: store.list(q).nextCursor ?? undefined };
      },
      30,
    );
    run('filter (status + model)', 50, (i) => store.list({ status: 'failed', model: MODELS[i % 3], limit: 100 }));
    run('filter (session)', 50, (i) => store.list({ session: `s-${(i * 37) % sessions}`, limit: 100 }));
    run('full-text search (a word fragment)', 50, () => store.list({ q: frag(), limit: 100 }));
    run('full-text search (a common word)', 50, (i) => store.list({ q: WORDS[i % 5], limit: 100 }), 20);
    // Tags of three characters or more (#10 …): the trigram index finds them. `#0` … `#9` are the next row's.
    run('full-text search (rare: one session tag)', 50, (i) => store.list({ q: `#${10 + ((i * 53) % (sessions - 10))}`, limit: 100 }));
    // Two characters have no trigram: the texts are scanned (until a page and the count's cap are found).
    run('full-text search (two characters: a scan)', 50, () => store.list({ q: frag().slice(0, 2), limit: 100 }), 20);
    // A rare two-character needle is the scan's worst case: every text is read to find its few rows.
    run('full-text search (rare 2 chars: every text)', 50, (i) => store.list({ q: `#${i % 10}`, limit: 100 }), 10);
    run('full-text search + filter (fragment, model)', 50, (i) => store.list({ q: frag(), model: MODELS[i % 3], limit: 100 }));
    run('full-text search, sorted by cost', 50, () => store.list({ q: frag(), sort: 'cost', limit: 100 }));
    run('sort by cost', 50, () => store.list({ sort: 'cost', limit: 100 }));
    run('sort by cached share, page 2', 50, () => {
      const first = store.list({ sort: 'cachedShare', order: 'asc', limit: 100 });
      store.list({ sort: 'cachedShare', order: 'asc', limit: 100, cursor: first.nextCursor ?? undefined });
    });
    run('session report', 100, (i) => {
      const session = `s-${(i * 37) % sessions}`;
      store.sessions({ limit: 50 });
      store.totals({ session });
      store.mostExpensive({ session });
      store.cacheMissesByCost({ session });
      store.daily({ timeZone: 'Europe/Paris', session });
    });
    run('daily roll-up, everything (Asia/Kathmandu)', 100, () => store.daily({ timeZone: 'Asia/Kathmandu' }), 20);
    store.close();

    console.log(`\nquery latencies over ${TOTAL} exchanges (budget: p50 < 50 ms, p99 < 200 ms; a session report < 100 ms)`);
    for (const [name, r, budget] of results)
      console.log(`  ${name.padEnd(44)} p50 ${ms(r.p50).padStart(9)}  p99 ${ms(r.p99).padStart(9)}  (budget ${budget} ms)`);
    console.log(`start-up (open ${TOTAL} stored)`.padEnd(46), ms(startup), '(budget < 1000 ms)');
    const rssEmpty = rssOf(empty);
    const rssBig = rssOf(home);
    console.log(
      `resident memory: empty ${(rssEmpty / 1e6).toFixed(1)} MB, ${TOTAL} stored ${(rssBig / 1e6).toFixed(1)} MB: +${((rssBig - rssEmpty) / 1e6).toFixed(1)} MB (budget < 30 MB)`,
    );
    const { naive, stored } = await measureStorage(path.join(root, 'ratio'), 200);
    console.log(
      `storage of a 200-request session after a checkpoint: ${(stored / 1e6).toFixed(2)} MB vs ${(naive / 1e6).toFixed(1)} MB of plain JSONL = ${((stored / naive) * 100).toFixed(2)} % (budget ≤ 3 %)`,
    );
  } finally {
    if (process.env.BENCH_KEEP) console.log(`kept ${root}`);
    else fs.rmSync(root, { recursive: true, force: true });
  }
}

await main();
