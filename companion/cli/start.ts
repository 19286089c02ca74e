/** @module `codex-devtools [start]`: the companion in the foreground until interrupted. */
import fs from 'node:fs';
import type { Companion, CompanionOptions } from '../server';
import { DEFAULT_MAX_STORE_BYTES } from '../defaults';
import { codexHome, configPath } from '../codex/config-file';
import { BEGIN, setupUpstream } from '../codex/setup';
import { COMPANION_VERSION } from '../version';
import { maskUrl } from '../lib/url-secrets';
import { StateDirLocked } from '../lib/state-lock';
import { probe } from '../lib/probe';
import { favourSmallHeaps } from '../lib/heap';
import { UsageError } from './errors';
import path from 'node:path';
import { home, logLevel, parse, port, size, START, url, withDefaultWatchHome } from './options';
import { formatPairingCode } from '../protocol/pairing';
import { extensionDirs, pairingLink } from './paths';

export const START_HELP = `Usage: codex-devtools [start] [options]

Starts the companion on 127.0.0.1 in the foreground: a proxy Codex sends its model requests to,
which forwards them untouched and records them for the DevTools extension.

Options:
  --port <n>               port to listen on (default 8642)
  --home <dir>             state directory (default $CODEX_DEVTOOLS_HOME or ~/.codex-devtools)
  --upstream <url>         API-key upstream (default: the openai_base_url you had before
                           codex-devtools setup, else https://api.openai.com/v1)
  --chatgpt-upstream <url> ChatGPT-login upstream (default https://chatgpt.com/backend-api/codex)
  --max-size <size>        prune the oldest sessions past this size (default 2g)
  --no-websocket           refuse Codex's WebSocket transport (Codex falls back to HTTP)
  --log-level <level>      debug, info, warn or error (default info)
  --watch-codex-home [dir] follow the session files Codex writes in this Codex home (default
                           $CODEX_HOME or ~/.codex) and import what the proxy did not see;
                           repeatable

OpenTelemetry export (off unless an endpoint is set; OTEL_EXPORTER_OTLP_* variables work too):
  --otlp-endpoint <url>    OTLP/HTTP base URL (/v1/traces, /v1/metrics are appended); protobuf,
                           or JSON with OTEL_EXPORTER_OTLP_PROTOCOL=http/json
  --otlp-header <k=v>      header sent with every export (repeatable), e.g. an auth header
  --otlp-resource <k=v>    resource attribute (repeatable), e.g. team=platform
  --otlp-signals <list>    traces,metrics (default), traces or metrics
  --otlp-content           also send prompt, response and tool text (off: counts and ids only)
  --otlp-include-imported  also send imported history as spans (metrics stay live-only)`;

/** Parses start options into companion options (shared with `run`). */
export function companionOptions(values: Record<string, unknown>): CompanionOptions {
  return {
    home: home(values.home),
    port: port(values.port),
    apiUpstream: url('upstream', values.upstream),
    chatgptUpstream: url('chatgpt-upstream', values['chatgpt-upstream']),
    maxStoreBytes: size(values['max-size'], DEFAULT_MAX_STORE_BYTES),
    websocket: values['no-websocket'] !== true,
    logLevel: logLevel(values['log-level']),
    watchCodexHomes: ((values['watch-codex-home'] as string[] | undefined) ?? []).map((h) => path.resolve(h)),
    otlp: {
      endpoint: values['otlp-endpoint'] as string | undefined,
      headers: values['otlp-header'] as string[] | undefined,
      resource: values['otlp-resource'] as string[] | undefined,
      signals: values['otlp-signals'] as string | undefined,
      content: values['otlp-content'] === true,
      includeImported: values['otlp-include-imported'] === true,
    },
  };
}

/** Starts a companion, or explains plainly why the port is not available. */
export async function startOrExplain(opts: CompanionOptions): Promise<Companion> {
  const p = opts.port!;
  const found = await probe(p);
  if (found.kind === 'companion')
    throw new UsageError(
      `A codex-devtools companion (${found.version}) is already running on 127.0.0.1:${p}. Use it, or stop it first.`,
      1,
    );
  // Before the server (and its worker) exist: their heaps are sized from the first allocation.
  favourSmallHeaps();
  // Loaded here, not at the top: `--help` and a bad flag answer without loading the whole server.
  const { startCompanion } = await import('../server');
  try {
    return await startCompanion(opts);
  } catch (err) {
    if ((err as Error).name === 'OtlpConfigError') throw new UsageError((err as Error).message);
    if (err instanceof StateDirLocked) throw new UsageError(err.message, 1);
    if ((err as { code?: string }).code === 'EADDRINUSE') {
      throw new UsageError(
        `Port ${p} on 127.0.0.1 is taken by another program. Free it, or pick another port with --port (and point Codex and the extension at it).`,
        1,
      );
    }
    throw err;
  }
}

/**
 * The upstream `setup` recorded for the companion on `port`, which stands in for `--upstream`.
 * A config.toml that cannot be read yields none: Codex cannot start with it either.
 */
export function recordedUpstream(port: number): string | null {
  try {
    return setupUpstream(codexHome(), port);
  } catch {
    return null;
  }
}

/** `recorded`: the API upstream taken from setup's record, to say where requests go and why. */
export function banner(c: Companion, recorded: string | null = null): string {
  const ext = extensionDirs();
  const base = `${c.url}/v1`;
  const lines = [
    `codex-devtools ${COMPANION_VERSION} listening on ${c.url}  (state: ${c.home})`,
    `Pairing code: ${formatPairingCode(c.port, c.token())}`,
    `  paste it in the extension's options (Chrome or Firefox, store or unpacked)`,
    `  unpacked development build in Chrome: or open ${pairingLink(c.port, c.token())}`,
    '',
    'Point Codex at it:',
    `  this run:      codex -c 'openai_base_url="${base}"'`,
    `  always:        codex-devtools setup --port ${c.port}     (undo: codex-devtools setup --remove)`,
    `  own provider:  set its base_url to ${base} and start this with --upstream <its old base_url>`,
    '',
    'Load the extension:',
    `  Chrome:  chrome://extensions → Developer mode → Load unpacked → ${ext.chrome ?? '(build it: npm run build)'}`,
    `  Firefox: about:debugging → This Firefox → Load Temporary Add-on → ${ext.firefox ? `${ext.firefox}/manifest.json` : '(build it: npm run build)'}`,
  ];
  const cfg = configPath(codexHome());
  if (fs.existsSync(cfg) && fs.readFileSync(cfg, 'utf8').includes(BEGIN)) {
    lines.push(
      '',
      `Codex is set up to go through codex-devtools (${cfg}): while this companion is stopped, Codex cannot reach its model. Undo with \`codex-devtools setup --remove\`.`,
    );
  }
  const otlp = c.exportStatus();
  if (otlp) {
    const to = [otlp.traces && `traces → ${otlp.traces.endpoint}`, otlp.metrics && `metrics → ${otlp.metrics.endpoint}`].filter(Boolean);
    const protocol = (otlp.traces ?? otlp.metrics)!.protocol;
    lines.push('', `OpenTelemetry export (${protocol}): ${to.join(', ')}; ${otlp.content ? 'with' : 'no'} conversation text`);
  }
  if (recorded) lines.push(forwardingNote(recorded));
  return lines.join('\n');
}

/** Where API-key requests go when setup's record chose it, and why (start and run print it). */
export function forwardingNote(recorded: string): string {
  return `API-key requests go on to ${maskUrl(recorded)}, the openai_base_url you had before \`codex-devtools setup\` (recorded in ${configPath(codexHome())}); --upstream overrides it.`;
}

/** Resolves when SIGINT or SIGTERM arrives. */
export function untilInterrupted(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals) => () => {
      process.off('SIGINT', int);
      process.off('SIGTERM', term);
      resolve(sig);
    };
    const int = on('SIGINT');
    const term = on('SIGTERM');
    process.on('SIGINT', int);
    process.on('SIGTERM', term);
  });
}

export async function start(args: string[]): Promise<number> {
  const { values } = parse('start', withDefaultWatchHome(args, codexHome()), START);
  if (values.help) {
    console.log(START_HELP);
    return 0;
  }
  const opts = companionOptions(values);
  const recorded = opts.apiUpstream ? null : recordedUpstream(opts.port!);
  if (recorded) opts.apiUpstream = recorded;
  const c = await startOrExplain(opts);
  // Listening before the banner: a Ctrl-C right after it still closes the companion cleanly.
  const interrupted = untilInterrupted();
  console.log(banner(c, recorded));
  await interrupted;
  console.log('\ncodex-devtools: stopping…');
  await c.close();
  return 0;
}
