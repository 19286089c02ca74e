/**
 * @module Builds the Hono app from its parts: security middleware, the REST API under `/api`,
 * and the proxy under `/v1`. It only wires; each part lives in its own stage folder.
 */
import { Hono } from 'hono';
import type { Hono as HonoType } from 'hono';
import { noBrowserRequests } from './proxy/browser-guard';
import { createForwardHandler, type ForwardDeps } from './proxy/forward';

export interface AppParts {
  forward: ForwardDeps;
  /** Mounted at `/api`. */
  api: HonoType;
}

export function buildApp(parts: AppParts): HonoType {
  const app = new Hono();
  app.route('/api', parts.api);
  app.use('/v1/*', noBrowserRequests());
  app.use('/v1', noBrowserRequests());
  const forward = createForwardHandler(parts.forward);
  app.all('/v1', forward);
  app.all('/v1/*', forward);
  app.notFound((c) =>
    c.json({ error: 'not_found', message: `codex-devtools serves /api and the proxy under /v1; ${c.req.path} is neither.` }, 404),
  );
  app.onError((err, c) => {
    parts.forward.log.error(`unhandled error on ${c.req.method} ${c.req.path}: ${err.message}`);
    return c.json({ error: 'internal_error', message: 'codex-devtools hit an internal error; see its log.' }, 500);
  });
  return app;
}
