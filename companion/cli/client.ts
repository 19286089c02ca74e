/** @module How CLI subcommands reach a running companion: health probe and token-authenticated API calls. */
import { loadOrCreateToken } from '../lib/token';

export interface Health {
  ok: boolean;
  version?: string;
}

/** What answers on the port: a companion (with its version), something else, or nothing. */
export async function probe(
  port: number,
  timeoutMs = 1500,
): Promise<{ kind: 'companion'; version: string } | { kind: 'other' } | { kind: 'none' }> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await res.json().catch(() => null)) as Health | null;
    return body?.ok === true && typeof body.version === 'string' ? { kind: 'companion', version: body.version } : { kind: 'other' };
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    return code === 'ECONNREFUSED' ? { kind: 'none' } : { kind: 'other' };
  }
}

/** Calls the running companion's API with the token from `home`. */
export async function callApi(
  port: number,
  home: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${loadOrCreateToken(home)}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}
