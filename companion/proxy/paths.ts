/** @module The proxy's paths: `/v1` and below are forwarded; the rest of the port is the API's. */

/** The path of a request target (`req.url`), without its query (which may carry a key). */
export function targetPath(url: string | undefined): string {
  return (url ?? '/').split('?')[0];
}

/** True for `/v1` and `/v1/…` (the path of a request target, without its query). */
export function isProxyPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/');
}

/** Path after the `/v1` prefix, e.g. `/v1/responses` → `/responses`. */
export function proxySuffix(pathname: string): string {
  return pathname.replace(/^\/v1(?=\/|$)/, '') || '/';
}
