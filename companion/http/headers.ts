/** @module Header hygiene for forwarding (hop-by-hop removal) and for capture (secret masking). */

/** RFC 9110 §7.6.1 connection-specific fields, never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export type HeaderPairs = [string, string][];

/** Lower-cased name/value pairs from a fetch `Headers`. */
export function headerPairs(headers: Headers): HeaderPairs {
  const out: HeaderPairs = [];
  headers.forEach((value, name) => out.push([name.toLowerCase(), value]));
  return out;
}

/** Lower-cased name/value pairs from Node-style headers (`IncomingMessage`, undici), repeated headers kept. */
export function headerPairsOf(h: Record<string, string | string[] | undefined>): HeaderPairs {
  const out: HeaderPairs = [];
  for (const [k, v] of Object.entries(h))
    for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.push([k.toLowerCase(), one]);
  return out;
}

/** Drops hop-by-hop headers and every header named in `Connection`, as a proxy must. */
export function withoutHopByHop(pairs: HeaderPairs, extraDrop: string[] = []): HeaderPairs {
  const named = new Set(extraDrop.map((h) => h.toLowerCase()));
  for (const [name, value] of pairs) {
    if (name === 'connection') for (const token of value.split(',')) named.add(token.trim().toLowerCase());
  }
  return pairs.filter(([name]) => !HOP_BY_HOP.has(name) && !named.has(name));
}

/**
 * Headers that carry credentials Codex (or a server) sends. Their values never reach disk or a
 * client: at most the last four characters remain.
 */
const SECRET_NAMES = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'chatgpt-account-id',
  'x-api-key',
  'api-key',
  'openai-api-key',
  'x-openai-actor-authorization',
]);

export function isSecretHeader(name: string): boolean {
  const n = name.toLowerCase();
  return SECRET_NAMES.has(n) || /(^|-)(api-?key|token|secret|password|auth(orization)?)($|-)/.test(n);
}

/** `Bearer sk-…abcd` → `[redacted …abcd]`; short values are masked entirely. */
export function maskSecret(value: string): string {
  const v = value.trim();
  return v.length >= 12 ? `[redacted …${v.slice(-4)}]` : '[redacted]';
}

/** A plain object of headers with secrets masked, for records and API responses. */
export function redactHeaders(pairs: HeaderPairs): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of pairs) {
    const masked = isSecretHeader(name) ? maskSecret(value) : value;
    out[name] = name in out ? `${out[name]}, ${masked}` : masked;
  }
  return out;
}
