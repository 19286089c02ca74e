/** @module Loopback names: the only hosts the companion answers to, and the only ones a plain-HTTP upstream may use. */

/**
 * A Host header value, strictly: `localhost`, `[::1]` or a dotted-decimal IPv4 in 127.0.0.0/8
 * (octets 0–255 without leading zeros, so no octal or hex spellings), with an optional port
 * 1–65535. Everything else (`localhost.`, `127.999.999.999`, `2130706433`, `[::ffff:127.0.0.1]`,
 * userinfo) is not a name this companion answers to.
 */
const HOST = /^(?:localhost|\[::1\]|127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}))(?::([1-9]\d{0,4}))?$/i;
const OCTET = /^(?:0|[1-9]\d{0,2})$/;

/** True for `127.0.0.1:8642`, `localhost`, `[::1]:8642`; false for any other value. */
export function isLoopbackHost(host: string | null | undefined): boolean {
  if (!host) return false;
  const m = HOST.exec(host.trim());
  if (!m) return false;
  const octets = m.slice(1, 4).filter((o): o is string => o !== undefined);
  if (octets.some((o) => !OCTET.test(o) || Number(o) > 255)) return false;
  return m[4] === undefined || Number(m[4]) <= 65535;
}

/**
 * The one Host of a request from its raw header list; null when there is none or more than one
 * (Node keeps the first of duplicates, a proxy in front might keep the last: refuse both).
 */
export function singleHost(rawHeaders: readonly string[]): string | null {
  let host: string | null = null;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() !== 'host') continue;
    if (host !== null) return null;
    host = rawHeaders[i + 1] ?? '';
  }
  return host;
}

/** What a request to a foreign Host is answered (DNS rebinding), before anything parses its URL. */
export const FOREIGN_HOST_BODY = JSON.stringify({
  error: 'foreign_host',
  message: 'codex-devtools only answers requests addressed to 127.0.0.1, [::1] or localhost.',
});

/** True when the request's one Host is a loopback literal (see `isLoopbackHost`, `singleHost`). */
export function addressedToLoopback(req: { rawHeaders: readonly string[] }): boolean {
  return isLoopbackHost(singleHost(req.rawHeaders));
}

/** True for an http(s) URL on a loopback host (`URL` has already normalised case, IPv4 and IPv6 forms). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).host);
  } catch {
    return false;
  }
}
