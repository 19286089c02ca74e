/**
 * `codex-devtools demo` (the built companion): a companion on a temporary state directory with the
 * bundled real Codex traffic loaded and analysed, its pairing code for the port it listens on,
 * and nothing left behind once it is stopped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeRecord, ExchangeSummary } from '../../companion/protocol/exchange';
import type { RateLimits } from '../../companion/protocol/ratelimits';
import { cli, startCli, type RunningCli } from '../support/cli';
import { tempHomes } from '../support/companion';
import { freePort } from '../support/ports';

const codexHome = tempHomes('codex-devtools-demo-codex-home-');
let demo: RunningCli | null = null;
afterEach(async () => {
  await demo?.stop('SIGKILL');
  demo = null;
});

async function startDemo() {
  const port = await freePort();
  // A Codex home of its own: the banner reads config.toml, and the user's must not matter here.
  demo = startCli(['demo', '--port', String(port)], { env: { CODEX_HOME: codexHome() } });
  await demo.waitFor(/Demo: \d+ exchanges/, 60_000);
  const out = demo.output();
  const [, state] = /\(state: ([^)]+)\)/.exec(out)!;
  const [, codePort, token] = /Pairing code: (\d+):(\S+)/.exec(out)!;
  return { port, state, codePort: Number(codePort), token, out };
}

async function api<T>(port: number, token: string, route: string): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}/api${route}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status, route).toBe(200);
  return (await res.json()) as T;
}

describe('codex-devtools demo', () => {
  it('is listed in the help, and its own help says the state directory is temporary', async () => {
    expect((await cli(['--help'])).stdout).toMatch(/^ {2}demo +a companion with real captured Codex traffic/m);
    const help = await cli(['demo', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: codex-devtools demo');
    expect(help.stdout).toMatch(/temporary state\s+directory is removed when the demo stops/);
  });

  it('prints a pairing code and link for its port and token, and serves every kind of exchange, analysed', async () => {
    const { port, state, codePort, token, out } = await startDemo();
    expect(codePort).toBe(port);
    expect(fs.readFileSync(path.join(state, 'token'), 'utf8').trim()).toBe(token);
    expect(out).toContain(`options.html#port=${port}&token=${encodeURIComponent(token)}`);
    expect(path.basename(state)).toMatch(/^codex-devtools-demo-/);

    const { items } = await api<{ items: ExchangeSummary[] }>(port, token, '/exchanges?limit=200');
    expect(out).toContain(`Demo: ${items.length} exchanges`);
    expect(new Set(items.map((s) => s.transport))).toEqual(new Set(['http', 'websocket']));
    expect(items.filter((s) => s.agent.role === 'subagent' && s.parentThreadId !== null).length).toBeGreaterThanOrEqual(2);
    expect(items.filter((s) => s.requestKind === 'compaction')).toHaveLength(1);
    const refused = items.filter((s) => s.httpStatus === 429);
    expect(refused).toHaveLength(1);
    expect(refused[0].cache?.verdict).toBe('not_applicable');
    expect(refused[0].costUsd).toBeNull();
    // Every model exchange came with its analysis: the import ran it.
    expect(items.filter((s) => s.kind === 'model' && s.cache === null)).toEqual([]);
    const codeMode = items.find((s) => s.model === 'gpt-6.1-sol')!;
    const record = await api<ExchangeRecord>(port, token, `/exchanges/${codeMode.id}`);
    expect((record.request.body as { input: { type: string }[] }).input.some((i) => i.type === 'additional_tools')).toBe(true);
    expect(record.analysis?.context?.sections.some((s) => s.group === 'tools')).toBe(true);
    // The gauges show the newest reading the traffic carried: the 429's, its 5-hour window used up.
    const { rateLimits } = await api<{ rateLimits: RateLimits | null }>(port, token, '/ratelimits');
    expect(rateLimits?.codex[0].primary).toMatchObject({ usedPercent: 100, windowMinutes: 300 });
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('removes its state directory when stopped with %s', async (signal) => {
    const { state } = await startDemo();
    expect(fs.existsSync(path.join(state, 'store.db'))).toBe(true);
    expect(await demo!.stop(signal)).toBe(0);
    expect(fs.existsSync(state)).toBe(false);
  });
});
