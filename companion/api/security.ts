/**
 * @module Security middleware (architecture.md, "Security model"): loopback Host only (DNS
 * rebinding), browser requests to `/api` only from extension origins, proxy routes never from
 * a browser, and the bearer token on `/api`.
 */
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { isLoopbackHost } from '../lib/loopback';

const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension):\/\/[a-z0-9-]+$/i;

export function isExtensionOrigin(origin: string | null | undefined): boolean {
  return !!origin && EXTENSION_ORIGIN.test(origin);
}

/** Compares tokens in constant time. */
export function tokenMatches(given: string | null | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const deny = (status: number, error: string, message: string) =>
  new Response(JSON.stringify({ error, message }), { status, headers: { 'content-type': 'application/json' } });

/** Refuses any request whose Host is not a loopback name (421 Misdirected Request). */
export function loopbackHost(): MiddlewareHandler {
  return async function loopbackHost(c, next) {
    if (!isLoopbackHost(c.req.header('host'))) {
      return deny(421, 'foreign_host', 'codex-devtools only answers requests addressed to 127.0.0.1 or localhost.');
    }
    await next();
  };
}

/** `/api`: browser requests only from extension pages; CORS headers for them. */
export function extensionOrigin(): MiddlewareHandler {
  return async function extensionOrigin(c, next) {
    const origin = c.req.header('origin');
    if (origin && !isExtensionOrigin(origin)) {
      return deny(403, 'forbidden_origin', 'Web pages may not use the codex-devtools API; only the extension may.');
    }
    if (origin && c.req.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': 'GET, POST, DELETE',
          'access-control-allow-headers': 'authorization, content-type',
          'access-control-max-age': '600',
          vary: 'origin',
        },
      });
    }
    await next();
    if (origin) {
      c.res.headers.set('access-control-allow-origin', origin);
      c.res.headers.append('vary', 'origin');
    }
  };
}

/** `/api` (except health): `Authorization: Bearer <token>`. */
export function bearerToken(getToken: () => string): MiddlewareHandler {
  return async function bearerToken(c, next) {
    const auth = c.req.header('authorization') ?? '';
    const given = auth.replace(/^Bearer\s+/i, '');
    if (!tokenMatches(given, getToken())) {
      return deny(401, 'unauthorized', 'Missing or wrong pairing token. Run `codex-devtools token` to see it.');
    }
    await next();
  };
}

/** Proxy routes: a request with a browser Origin is refused, so no web page can spend the user's key. */
export function noBrowserOrigin(): MiddlewareHandler {
  return async function noBrowserOrigin(c, next) {
    if (c.req.header('origin')) {
      return new Response(
        JSON.stringify({
          error: { message: 'codex-devtools refuses proxy requests from web browsers.', type: 'forbidden_origin', code: null, param: null },
        }),
        { status: 403, headers: { 'content-type': 'application/json' } },
      );
    }
    await next();
  };
}
