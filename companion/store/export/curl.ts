/**
 * @module "Copy as cURL" for a recorded request: the URL it was forwarded to, its headers and its
 * body (the full JSON, rebuilt for a WebSocket turn), as one POSIX shell command. Credentials are
 * left out whole (capture kept only their masked tails anyway), and every value is quoted as
 * hostile: captured text comes from the model and the user's files.
 */
import { isSecretHeader } from '../../http/headers';
import type { ExchangeRecord } from '../../protocol/exchange';
import { isCredentialHeader } from './credentials';

/**
 * Headers the command must not carry: curl computes length and host itself, the body is stored
 * decoded (a zstd `content-encoding` would lie about it), and an `accept-encoding` curl does not
 * decode would print compressed bytes.
 */
const LEFT_OUT = new Set([
  'host',
  'content-length',
  'content-encoding',
  'accept-encoding',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/**
 * One shell word. Plain `'…'` when the text has no control characters (a `'` becomes `'\''`);
 * otherwise bash's `$'…'` with every control character escaped, so nothing invisible (a carriage
 * return, an escape sequence) reaches the terminal the command is pasted into.
 */
export function shellQuote(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
  if (!/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if ((c >= 0x80 && c <= 0x9f) || c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `$'${out}'`;
}

/** The request's body as sent over HTTP: JSON as JSON, text as is, nothing when there was none. */
function bodyText(r: ExchangeRecord): string | null {
  const b = r.request.body;
  if (b === undefined || b === null) return null;
  return typeof b === 'string' ? b : JSON.stringify(b);
}

export function curlCommand(r: ExchangeRecord): string {
  const url = r.request.upstreamUrl ?? `${r.route.upstream.replace(/\/+$/, '')}${r.request.path.replace(/^\/v1/, '')}`;
  const parts = [`curl ${shellQuote(url)}`];
  if (r.request.method !== 'GET' && r.request.method !== 'POST') parts.push(`-X ${shellQuote(r.request.method)}`);
  for (const [name, value] of Object.entries(r.request.headers)) {
    const n = name.toLowerCase();
    if (isCredentialHeader(n) || isSecretHeader(n) || LEFT_OUT.has(n)) continue;
    parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  const body = bodyText(r);
  // --data-raw: a body starting with `@` must not make curl read a file.
  if (body !== null) parts.push(`--data-raw ${shellQuote(body)}`);
  else if (r.request.method === 'POST') parts.push('-X POST');
  return parts.join(' \\\n  ');
}
