/**
 * @module Which outbound proxy a URL goes through, from HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either
 * case) of the companion's environment: the rules undici's EnvHttpProxyAgent applies to HTTP,
 * applied to the WebSocket relay too. Written here because it must read the companion's own
 * environment (injectable for tests), which proxy-from-env, reading process.env, cannot.
 */

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

/** The proxy variables; '' when unset. */
export interface ProxyEnv {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/**
 * Reads each variable lower-case name first, as undici and curl do, so HTTP requests and the
 * WebSocket relay agree when both spellings are set to different proxies.
 */
export function readProxyEnv(env: NodeJS.ProcessEnv = process.env): ProxyEnv {
  const get = (name: string) => env[name.toLowerCase()] ?? env[name] ?? '';
  return { httpProxy: get('HTTP_PROXY'), httpsProxy: get('HTTPS_PROXY'), noProxy: get('NO_PROXY') };
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
  const p = readProxyEnv(env);
  const proxy = secure ? p.httpsProxy || p.httpProxy : p.httpProxy;
  if (!proxy) return null;
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(u.port) || DEFAULT_PORT[u.protocol] || 0;
  return bypassed(host, port, p.noProxy) ? null : proxy;
}
