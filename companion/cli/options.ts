/** @module Shared option parsing for the `codex-devtools` subcommands (node:util parseArgs, strict). */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { resolveHome } from '../store/layout';
import { readLock } from '../lib/state-lock';
import { maskUrl } from '../lib/url-secrets';
import { DEFAULT_PORT } from '../defaults';
import { UsageError } from './errors';

export type Options = NonNullable<ParseArgsConfig['options']>;

export const COMMON: Options = {
  port: { type: 'string' },
  home: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

export const START: Options = {
  ...COMMON,
  upstream: { type: 'string' },
  'chatgpt-upstream': { type: 'string' },
  'max-size': { type: 'string' },
  'no-websocket': { type: 'boolean' },
  'log-level': { type: 'string' },
  'otlp-endpoint': { type: 'string' },
  'otlp-header': { type: 'string', multiple: true },
  'otlp-resource': { type: 'string', multiple: true },
  'otlp-signals': { type: 'string' },
  'otlp-content': { type: 'boolean' },
  'otlp-include-imported': { type: 'boolean' },
};

/** Parses `args` strictly: unknown flags and missing values become one-line usage errors. */
export function parse(command: string, args: string[], options: Options, allowPositionals = false) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (err) {
    const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new UsageError(
      `${command}: ${msg.replace(/^Unknown option '([^']+)'.*/, 'unknown option $1')} (see codex-devtools ${command} --help)`,
    );
  }
}

export function port(value: unknown): number {
  if (value === undefined) return DEFAULT_PORT;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new UsageError(`--port must be a port number (1-65535), not ${JSON.stringify(value)}`);
  return n;
}

/**
 * The port of the companion a command talks to: `--port` when given, else the port of the
 * companion holding the state directory's lock, else the default.
 */
export function companionPort(values: { port?: unknown }, stateDir: string): number {
  if (values.port !== undefined) return port(values.port);
  return readLock(stateDir)?.port || DEFAULT_PORT;
}

export function home(value: unknown): string {
  return resolveHome(typeof value === 'string' ? value : null);
}

/** `2g`, `500m`, `1024` (bytes) → bytes. */
export function size(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const m = /^(\d+(?:\.\d+)?)\s*([kmgt]?)b?$/i.exec(String(value).trim());
  if (!m) throw new UsageError(`--max-size must look like 2g, 500m or a number of bytes, not ${JSON.stringify(value)}`);
  const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return Math.floor(Number(m[1]) * mult);
}

export function url(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  try {
    const u = new URL(String(value));
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    return String(value).replace(/\/+$/, '');
  } catch {
    throw new UsageError(`--${name} must be an http(s) URL, not ${JSON.stringify(maskUrl(String(value)))}`);
  }
}

export function logLevel(value: unknown): 'debug' | 'info' | 'warn' | 'error' {
  if (value === undefined) return 'info';
  if (value === 'debug' || value === 'info' || value === 'warn' || value === 'error') return value;
  throw new UsageError(`--log-level must be debug, info, warn or error, not ${JSON.stringify(value)}`);
}
