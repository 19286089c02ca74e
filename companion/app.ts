/**
 * @module Builds the Hono app of everything on the port that is not the proxy: the REST API under
 * `/api` and the answer for unknown paths. The proxy paths never reach it (server.ts hands them
 * to proxy/forward.ts first, and loads this module with the first request that is not theirs).
 * It only wires; each part lives in its own stage folder.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { buildApi } from './api/routes';
import type { CompanionContext } from './context';
import { INTERNAL_ERROR } from './lib/internal-error';
import type { Logger } from './lib/log';

function buildApp(api: Hono, log: Logger): Hono {
  const app = new Hono();
  app.route('/api', api);
  app.notFound((c) =>
    c.json({ error: 'not_found', message: `codex-devtools serves /api and the proxy under /v1; ${c.req.path} is neither.` }, 404),
  );
  app.onError((err, c) => {
    log.error(`unhandled error on ${c.req.method} ${c.req.path}: ${err.message}`);
    return c.json(INTERNAL_ERROR, 500);
  });
  return app;
}

export type AppListener = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The app as a node:http listener. */
export function appListener(ctx: CompanionContext): AppListener {
  return getRequestListener(buildApp(buildApi(ctx), ctx.log).fetch);
}
