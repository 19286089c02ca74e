/** @module Loopback names: the only hosts the companion answers to, and the only ones a plain-HTTP upstream may use. */

const LOOPBACK_HOST = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])(:\d{1,5})?$/i;

/** True for `127.0.0.1:8642`, `localhost`, `[::1]:8642`; false for any other name. */
export function isLoopbackHost(host: string | null | undefined): boolean {
  return !!host && LOOPBACK_HOST.test(host.trim());
}

/** True for an http(s) URL on a loopback host (`URL` has already normalised case, IPv4 and IPv6 forms). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).host);
  } catch {
    return false;
  }
}
