/**
 * @module `codex-devtools demo`: a companion on a temporary state directory loaded with real
 * Codex CLI traffic bundled with the package, so the panel has a full history to show before
 * any Codex session ran through it. The directory is removed when the demo stops.
 *
 * Port: `--port` is used as given (taken → the same error as `start`). Without it the default port
 * is tried first, and when something holds it (most likely the user's own companion) the demo
 * takes a free port and says so: a demo that fails because the real companion runs would help nobody.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Companion, CompanionOptions } from '../server';
import { DEFAULT_PORT } from '../defaults';
import { probe } from '../lib/probe';
import { UsageError } from './errors';
import { logLevel, parse, port, type Options } from './options';
import { demoTrafficFile } from './paths';
import { banner, startOrExplain, untilInterrupted } from './start';

export const DEMO_HELP = `Usage: codex-devtools demo [--port <n>] [--log-level <level>]

Starts a companion on a temporary state directory loaded with real Codex CLI 0.169 traffic
bundled with this package (HTTP and WebSocket, code mode, sub-agents, a compaction, rate limits
and a 429), and prints the pairing code: pair the extension and open the Codex panel to look
around. Your own history (~/.codex-devtools) is neither read nor changed. The temporary state
directory is removed when the demo stops (Ctrl-C).

Options:
  --port <n>           port to listen on (default ${DEFAULT_PORT}; when it is taken, a free port is
                       chosen and printed)
  --log-level <level>  debug, info, warn or error (default warn)`;

const DEMO: Options = { port: { type: 'string' }, 'log-level': { type: 'string' }, help: { type: 'boolean', short: 'h' } };

/** `--port` as given; else the default port when it is free, else 0 (the system picks one) and why. */
export async function demoPort(requested: unknown, preferred = DEFAULT_PORT): Promise<{ port: number; note: string | null }> {
  if (requested !== undefined) return { port: port(requested), note: null };
  const found = await probe(preferred);
  if (found.kind === 'none') return { port: preferred, note: null };
  const who = found.kind === 'companion' ? `a codex-devtools companion (${found.version})` : 'another program';
  return { port: 0, note: `Port ${preferred} is taken by ${who}, so the demo listens on a free port instead.` };
}

async function startDemo(opts: CompanionOptions): Promise<Companion> {
  try {
    return await startOrExplain(opts);
  } catch (err) {
    // Taken between the probe and the listen: any free port will do for a demo.
    if (err instanceof UsageError && opts.port === DEFAULT_PORT && /is taken/.test(err.message))
      return startOrExplain({ ...opts, port: 0 });
    throw err;
  }
}

export async function demoCommand(args: string[]): Promise<number> {
  const { values } = parse('demo', args, DEMO);
  if (values.help) {
    console.log(DEMO_HELP);
    return 0;
  }
  const traffic = demoTrafficFile();
  if (!traffic) throw new UsageError('the demo traffic file (demo-traffic.jsonl) is missing from this installation', 1);
  const level = values['log-level'] === undefined ? 'warn' : logLevel(values['log-level']);
  const chosen = await demoPort(values.port);
  // From here on a Ctrl-C ends the demo through the cleanup below, even while it is starting.
  const interrupted = untilInterrupted();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-devtools-demo-'));
  let c: Companion | null = null;
  try {
    c = await startDemo({ home, port: chosen.port, logLevel: level });
    const report = await c.imports.run({ files: [traffic] });
    if (chosen.note) console.log(chosen.note);
    console.log(banner(c));
    console.log(
      `\nDemo: ${report.added} exchanges of real Codex CLI traffic loaded (${report.files} file). This state directory is temporary and is removed when you stop the demo (Ctrl-C).`,
    );
    await interrupted;
    console.log('\ncodex-devtools demo: stopping…');
    return 0;
  } finally {
    await c?.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}
