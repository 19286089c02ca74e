import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { scenarios } from '../support/scenarios';
import { CODEX_BIN, parseTokensUsed, prepareCodex } from '../support/codex';
import { CLI } from '../support/cli';
import { freePort } from '../support/ports';
import { tempHome } from '../support/companion';
import { rawRequest } from '../support/http';
import fs from 'node:fs';

/** Runs `codex-devtools run … -- codex exec …`, lets `whileServing` query the companion after Codex exits, then interrupts. */
async function runThrough(
  opts: { port: number; home: string; runArgs: string[]; prepare: Parameters<typeof prepareCodex>[0] },
  whileServing?: () => Promise<void>,
): Promise<{ code: number | null; output: string }> {
  const codex = prepareCodex(opts.prepare);
  const child = spawn(
    process.execPath,
    [CLI, 'run', '--port', String(opts.port), '--home', opts.home, ...opts.runArgs, '--', CODEX_BIN, ...codex.execArgs],
    {
      cwd: codex.workDir,
      env: codex.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  try {
    if (!opts.runArgs.includes('--exit-with-codex')) {
      await expect.poll(() => output, { timeout: 60_000 }).toMatch(/Codex exited/);
      await whileServing?.();
      child.kill('SIGINT');
    }
    return { code: await exited, output };
  } finally {
    codex.cleanup();
  }
}

describe('codex-devtools run -- codex …', () => {
  let upstream: FakeUpstream;
  const homes: string[] = [];
  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: scenarios.toolCall() });
  });
  afterAll(async () => {
    await upstream.close();
    for (const h of homes) fs.rmSync(h, { recursive: true, force: true });
  });
  const home = () => {
    const h = tempHome();
    homes.push(h);
    return h;
  };

  it("routes a custom provider's run through a companion, which serves the history afterwards, with Codex's token figure", async () => {
    const port = await freePort();
    const h = home();
    let listed: any;
    let usage: any;
    const { code, output } = await runThrough(
      {
        port,
        home: h,
        runArgs: [],
        // The user's own provider points straight at the (fake) upstream; run reroutes it per run.
        prepare: { prompt: 'run echo hi', baseUrl: upstream.baseUrl, provider: 'custom' },
      },
      async () => {
        const token = fs.readFileSync(`${h}/token`, 'utf8').trim();
        const get = async (p: string) =>
          JSON.parse(
            (await rawRequest(`http://127.0.0.1:${port}/api${p}`, { headers: { authorization: `Bearer ${token}` } })).body.toString(),
          );
        // Capture and analysis run in a worker thread after the bytes were forwarded: wait for both
        // exchanges to be stored and analysed.
        await expect
          .poll(
            async () => {
              const { items } = await get('/exchanges');
              return items.length === 2 && items.every((x: any) => x.cache !== null);
            },
            { timeout: 15_000 },
          )
          .toBe(true);
        listed = await get('/exchanges');
        usage = await get('/usage');
      },
    );
    expect(code).toBe(0);
    expect(output).toContain('The command printed: hi');
    expect(listed.items).toHaveLength(2);
    expect(listed.items[0]).toMatchObject({
      agent: { role: 'main', name: '/root' },
      requestKind: 'turn',
      usage: { inputTokens: 5000, cachedTokens: 4096, outputTokens: 12 },
    });
    expect(listed.items[0].sessionId).toBeTruthy();
    expect(listed.items[0].route.upstream).toBe(upstream.baseUrl);
    // The built companion analyses in its worker thread: cache brief and cost arrive with the summary.
    expect(listed.items[0].cache.hitRate).toBeCloseTo(4096 / 5000, 10);
    expect(listed.items[0].costUsd).toBeGreaterThan(0);
    expect(usage.codexTokensUsed).toBe(parseTokensUsed(output));
    expect(usage.codexTokensUsed).toBe(1956);
  });

  it('routes the built-in provider by openai_base_url; a refused WebSocket makes Codex fall back to HTTP', async () => {
    const port = await freePort();
    const before = upstream.modelRequests().length;
    const { code, output } = await runThrough({
      port,
      home: home(),
      runArgs: ['--upstream', upstream.baseUrl, '--exit-with-codex', '--no-websocket'],
      prepare: { prompt: 'run echo hi', provider: 'builtin' },
    });
    expect(code).toBe(0);
    expect(output).toContain('The command printed: hi');
    expect(upstream.modelRequests().length - before).toBe(2);
    expect(parseTokensUsed(output)).toBe(1956);
  });

  it("returns Codex's exit code", async () => {
    const failing = await startFakeUpstream({ scenario: scenarios.usageLimit() });
    try {
      const { code, output } = await runThrough({
        port: await freePort(),
        home: home(),
        runArgs: ['--exit-with-codex'],
        prepare: { prompt: 'hi', baseUrl: failing.baseUrl, provider: 'custom' },
      });
      expect(output).toMatch(/usage limit/i);
      expect(code).toBe(1);
    } finally {
      await failing.close();
    }
  });

  it('uses a companion already running on the port instead of starting another', async () => {
    const port = await freePort();
    const h = home();
    const server = spawn(process.execPath, [CLI, '--port', String(port), '--home', h, '--upstream', upstream.baseUrl], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    server.stdout.on('data', (d) => (out += d));
    await expect.poll(() => out, { timeout: 10_000 }).toContain('listening on');
    try {
      const { code, output } = await runThrough({
        port,
        home: h,
        runArgs: ['--exit-with-codex'],
        prepare: { prompt: 'run echo hi', baseUrl: upstream.baseUrl, provider: 'custom' },
      });
      expect(code).toBe(0);
      expect(output).toContain(`using the companion already running on 127.0.0.1:${port}`);
      const token = fs.readFileSync(`${h}/token`, 'utf8').trim();
      const res = await rawRequest(`http://127.0.0.1:${port}/api/exchanges`, { headers: { authorization: `Bearer ${token}` } });
      expect(JSON.parse(res.body.toString()).items).toHaveLength(2);
    } finally {
      server.kill('SIGINT');
    }
  });
});
