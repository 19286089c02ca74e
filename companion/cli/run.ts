/**
 * @module `codex-devtools run [options] -- codex <args…>`: routes one Codex run through a
 * companion (started here, or the one already on the port) with `-c` overrides only; the
 * user's config.toml is never touched.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { codexHome, companionUrl, effectiveRoute, pointsAtCompanion, readConfig } from '../codex/config-file';
import { setupUpstream } from '../codex/setup';
import { createLogger } from '../lib/log';
import { fileSink } from '../lib/file-log';
import type { Companion } from '../server';
import { probe } from '../lib/probe';
import { UsageError } from './errors';
import { parse, START } from './options';
import { companionOptions, forwardingNote, startOrExplain, untilInterrupted } from './start';

export const RUN_HELP = `Usage: codex-devtools run [options] -- codex <codex arguments…>

Runs Codex through a companion without changing ~/.codex/config.toml: starts a companion (or
uses the one already running on the port) and launches Codex with -c overrides that route it
through it. With the built-in provider, openai_base_url is set; with your own
[model_providers.<id>], its base_url is, and its old base_url becomes the upstream.
Codex keeps your terminal; its exit code is returned.

Options: those of \`codex-devtools start\`, plus
  --exit-with-codex        stop the companion when Codex exits (default: keep serving the
                           captured history until Ctrl-C)`;

/**
 * The `-c` overrides and upstreams for one run, from the user's Codex config. `recorded` is the
 * upstream when it comes from setup's record rather than the config's own base URL.
 */
export function hookUp(
  port: number,
  env: NodeJS.ProcessEnv = process.env,
): { overrides: string[]; upstream: string | null; recorded: string | null; provider: string } {
  const base = companionUrl(port);
  const home = codexHome(env);
  const { config } = readConfig(home);
  const route = effectiveRoute(config);
  // The old base URL becomes the upstream. When it is this very companion (left by `setup`), the
  // base URL setup recorded in its place does.
  const ours = route.baseUrl !== null && pointsAtCompanion(route.baseUrl, port);
  const recorded = ours ? setupUpstream(home, port) : null;
  const previous = ours ? recorded : route.baseUrl;
  if (route.provider === 'openai')
    return { overrides: ['-c', `openai_base_url=${JSON.stringify(base)}`], upstream: previous, recorded, provider: 'openai' };
  if (route.builtin)
    throw new UsageError(
      `Codex uses the built-in provider "${route.provider}", which codex-devtools does not route; use the openai provider or your own [model_providers.<id>].`,
    );
  const key = /^[A-Za-z0-9_-]+$/.test(route.provider) ? route.provider : JSON.stringify(route.provider);
  return {
    overrides: ['-c', `model_providers.${key}.base_url=${JSON.stringify(base)}`],
    upstream: previous,
    recorded,
    provider: route.provider,
  };
}

const FORWARDED: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGQUIT'];

export async function run(args: string[]): Promise<number> {
  const sep = args.indexOf('--');
  const own = sep >= 0 ? args.slice(0, sep) : args;
  const command = sep >= 0 ? args.slice(sep + 1) : [];
  const { values } = parse('run', own, { ...START, 'exit-with-codex': { type: 'boolean' } });
  if (values.help) {
    console.log(RUN_HELP);
    return 0;
  }
  if (command.length === 0) throw new UsageError('run: give the Codex command after --, e.g. codex-devtools run -- codex exec "hello"');
  const opts = companionOptions(values);
  const hook = hookUp(opts.port!);
  const recorded = opts.apiUpstream ? null : hook.recorded;
  if (hook.upstream && !opts.apiUpstream) opts.apiUpstream = hook.upstream;
  // A custom provider's base_url is the upstream whatever the credentials.
  if (hook.provider !== 'openai' && hook.upstream && !opts.chatgptUpstream) opts.chatgptUpstream = hook.upstream;

  let companion: Companion | null = null;
  const found = await probe(opts.port!);
  if (found.kind === 'companion') {
    process.stderr.write(`codex-devtools: using the companion already running on 127.0.0.1:${opts.port} (${found.version})\n`);
  } else {
    companion = await startOrExplain({
      ...opts,
      logger: createLogger(opts.logLevel ?? 'info', fileSink(path.join(opts.home, 'companion.log'))),
    });
    process.stderr.write(
      `codex-devtools: capturing on ${companion.url} (log: ${path.join(opts.home, 'companion.log')}); open DevTools → Codex to watch\n`,
    );
    if (recorded) process.stderr.write(`codex-devtools: ${forwardingNote(recorded)}\n`);
  }

  const [program, ...rest] = command;
  const child = spawn(program, [...hook.overrides, ...rest], { stdio: 'inherit' });
  const forward = (sig: NodeJS.Signals) => () => child.kill(sig);
  const handlers = FORWARDED.map((sig) => [sig, forward(sig)] as const);
  for (const [sig, h] of handlers) process.on(sig, h);
  // With a terminal, Ctrl-C already reaches Codex (same process group); only pass on other SIGINTs.
  const onInt = () => {
    if (!process.stdin.isTTY) child.kill('SIGINT');
  };
  process.on('SIGINT', onInt);
  const code = await new Promise<number>((resolve) => {
    child.on('error', (err) => {
      process.stderr.write(`codex-devtools: could not start ${program}: ${err.message}\n`);
      resolve(127);
    });
    child.on('exit', (c, sig) => resolve(c ?? 128 + (sig ? os.constants.signals[sig] : 1)));
  });
  for (const [sig, h] of handlers) process.off(sig, h);
  process.off('SIGINT', onInt);

  if (companion) {
    if (values['exit-with-codex']) {
      await companion.close();
    } else {
      process.stderr.write(
        `codex-devtools: Codex exited (${code}). The companion keeps serving the captured history on ${companion.url}; press Ctrl-C to stop.\n`,
      );
      await untilInterrupted();
      await companion.close();
    }
  }
  return code;
}
