/** @module What answers on a loopback port: a codex-devtools companion (its health route), something else, or nothing. */

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
