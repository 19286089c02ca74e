/** @module How CLI subcommands reach a running companion: token-authenticated API calls. */
import { loadOrCreateToken } from '../lib/token';

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
