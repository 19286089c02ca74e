/**
 * @module The HTTP client for upstream requests. undici's `request` gives raw bytes (no
 * automatic decompression, so Codex gets exactly what the upstream sent) and `EnvHttpProxyAgent`
 * honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY, which Node's built-in fetch ignores.
 * NODE_EXTRA_CA_CERTS is honoured by Node's TLS layer, which undici uses.
 * Without a proxy the agent is imported by file: undici's index loads all of undici (fetch,
 * WebSocket, caches, mocks: some 150 modules, about 3.5 MB resident) for a companion that needs
 * one class. The proxy agent needs the index (it tunnels with `connect`, one of the methods the
 * index adds to every dispatcher), so it loads undici whole. undici is pinned, and its package
 * exports every file.
 */
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import { readProxyEnv } from './proxy-env';

export interface UpstreamClientOptions {
  /** Longest wait for response headers. */
  headersTimeoutMs: number;
  /** Longest silence between body chunks. Never below Codex's own `stream_idle_timeout_ms` (300 s). */
  bodyTimeoutMs: number;
  connectTimeoutMs: number;
  /** Proxy variables to honour; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_UPSTREAM_TIMEOUTS = {
  headersTimeoutMs: 600_000,
  bodyTimeoutMs: 600_000,
  connectTimeoutMs: 30_000,
} as const;

export async function createDispatcher(opts: UpstreamClientOptions): Promise<Dispatcher> {
  const common = {
    headersTimeout: opts.headersTimeoutMs,
    bodyTimeout: opts.bodyTimeoutMs,
    connect: { timeout: opts.connectTimeoutMs },
  };
  const p = readProxyEnv(opts.env);
  // All three passed, even when empty: undici would otherwise read process.env for a missing one.
  if (p.httpProxy || p.httpsProxy) return new (await import('undici')).EnvHttpProxyAgent({ ...common, ...p });
  return new Agent(common);
}
