/**
 * @module Security middleware of `/api` (architecture.md, "Security model"): browser requests only
 * from extension origins, and the bearer token. The loopback Host check runs before Hono, in
 * server.ts and the upgrade handler (lib/loopback.ts); the proxy routes' guard is proxy/browser-guard.ts.
 */
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

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
