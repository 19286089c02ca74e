/**
 * @module Builds the Hono app of everything on the port that is not the proxy: the REST API under
 * `/api` and the answer for unknown paths. The proxy paths never reach it (server.ts hands them
 * to proxy/forward.ts first). It only wires; each part lives in its own stage folder.
 */
import { Hono } from 'hono';
import type { Hono as HonoType } from 'hono';
import type { Logger } from './lib/log';

export interface AppParts {
  /** Mounted at `/api`. */
  api: HonoType;
  log: Logger;
}

export function buildApp(parts: AppParts): HonoType {
  const app = new Hono();
  app.route('/api', parts.api);
  app.notFound((c) =>
    c.json({ error: 'not_found', message: `codex-devtools serves /api and the proxy under /v1; ${c.req.path} is neither.` }, 404),
  );
  app.onError((err, c) => {
    parts.log.error(`unhandled error on ${c.req.method} ${c.req.path}: ${err.message}`);
    return c.json({ error: 'internal_error', message: 'codex-devtools hit an internal error; see its log.' }, 500);
  });
  return app;
}
