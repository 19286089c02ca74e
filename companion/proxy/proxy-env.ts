/**
 * @module Which outbound proxy a URL goes through, from HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either
 * case) of the companion's environment: the rules undici's EnvHttpProxyAgent applies to HTTP,
 * applied to the WebSocket relay too. Written here because it must read the companion's own
 * environment (injectable for tests), which proxy-from-env, reading process.env, cannot.
 */

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

function get(env: NodeJS.ProcessEnv, name: string): string {
  return env[name.toLowerCase()] ?? env[name] ?? '';
}

/** NO_PROXY entries: `host`, `.suffix`, `*.suffix`, `host:port`, `*` (everything). */
function bypassed(host: string, port: number, noProxy: string): boolean {
  const list = noProxy
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  return list.some((entry) => {
    if (entry === '*') return true;
    const m = /^(.*?)(?::(\d+))?$/.exec(entry)!;
    if (m[2] && Number(m[2]) !== port) return false;
    const name = m[1].replace(/^\*/, '');
    return name.startsWith('.') ? host.endsWith(name) || host === name.slice(1) : host === name;
  });
}

/** The proxy URL for `target` (http, https, ws or wss), or null to connect directly. */
export function proxyFor(target: string, env: NodeJS.ProcessEnv = process.env): string | null {
  let u: URL;
  try {
    u = new URL(target);
  } catch {
    return null;
  }
  const secure = u.protocol === 'https:' || u.protocol === 'wss:';
  const proxy = secure ? get(env, 'HTTPS_PROXY') || get(env, 'HTTP_PROXY') : get(env, 'HTTP_PROXY');
  if (!proxy) return null;
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(u.port) || DEFAULT_PORT[u.protocol] || 0;
  return bypassed(host, port, get(env, 'NO_PROXY')) ? null : proxy;
}
