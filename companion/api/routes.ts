/**
 * @module The REST API under `/api`: thin handlers that validate, read the store or the
 * roll-ups, and serialise. Everything but `/health` needs the token; browsers only from
 * extension pages.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { withLayout } from '../analysis/layout';
import type { CompanionContext } from '../context';
import { INTERNAL_ERROR } from '../lib/internal-error';
import { describeError } from '../lib/log';
import { Unavailable } from '../lib/unavailable';
import path from 'node:path';
import { ExchangeListQuerySchema, ImportRequestSchema } from '../protocol/api';
import { DailyQuerySchema, SessionListQuerySchema, TopExchangesQuerySchema } from '../protocol/history';
import { decodeCursor } from '../store/sqlite/query';
import { isTimeZone } from '../store/sqlite/time-zone';
import { EXPORT_FORMATS } from '../store/export';
import { ActivateProfileSchema, ProfileInputSchema } from '../protocol/profile';
import { ProfileError } from '../proxy/profiles';
import { COMPANION_VERSION } from '../version';
import { bearerToken, extensionOrigin } from './security';
import { curlCommand } from '../store/export/curl';
import { badRequest, body, notFound, query } from './validate';

/** The list's own filters and search (what the panel shows is what it exports), without paging or sort. */
const ExportQuerySchema = ExchangeListQuerySchema.omit({ limit: true, before: true, cursor: true, sort: true, order: true }).extend({
  format: z.enum(Object.keys(EXPORT_FORMATS) as [keyof typeof EXPORT_FORMATS]),
});

const UsageQuerySchema = z.object({
  session: z.string().max(200).optional(),
  since: z.coerce.number().int().nonnegative().optional(),
  until: z.coerce.number().int().nonnegative().optional(),
});

export function buildApi(ctx: CompanionContext): Hono {
  const api = new Hono();
  api.use('*', extensionOrigin());
  api.get('/health', (c) => c.json({ ok: true, version: COMPANION_VERSION }));
  api.use('*', bearerToken(ctx.token));
  // Capture runs after forwarding, in its worker: a history read first lets it store what Codex has
  // already received (bounded, so a busy capture never holds an answer long).
  const settled: Parameters<typeof api.use>[1] = async (c, next) => {
    if (c.req.method === 'GET') await ctx.captureSettled();
    await next();
  };
  for (const p of ['/exchanges', '/exchanges/*', '/sessions', '/sessions/*', '/usage', '/usage/*', '/reports/*', '/export'])
    api.use(p, settled);

  api.get('/exchanges', async (c) => {
    const q = query(c, ExchangeListQuerySchema);
    if (!q.ok) return q.res;
    if (q.value.cursor && !decodeCursor(q.value.cursor)) return badRequest(c, 'cursor is not one this API gave');
    return c.json(await ctx.store.list(q.value));
  });

  // The costliest exchanges and cache misses of a session, a local day, or everything.
  for (const [route, pick] of [
    ['/reports/expensive', 'mostExpensive'],
    ['/reports/cache-misses', 'cacheMissesByCost'],
  ] as const) {
    api.get(route, async (c) => {
      const q = query(c, TopExchangesQuerySchema);
      if (!q.ok) return q.res;
      if (!isTimeZone(q.value.tz)) return badRequest(c, `unknown time zone ${q.value.tz}`);
      const { limit, tz, ...scope } = q.value;
      return c.json({ items: await ctx.store[pick]({ ...scope, timeZone: tz }, limit) });
    });
  }

  api.get('/usage/daily', async (c) => {
    const q = query(c, DailyQuerySchema);
    if (!q.ok) return q.res;
    if (!isTimeZone(q.value.tz)) return badRequest(c, `unknown time zone ${q.value.tz}`);
    const { tz, ...rest } = q.value;
    return c.json({ timeZone: tz, days: await ctx.store.daily({ ...rest, timeZone: tz }) });
  });

  api.get('/exchanges/:id', async (c) => {
    const id = c.req.param('id');
    // An exchange still streaming is served as it stands (status `streaming`).
    // The worker's record of a streaming exchange is fuller than its begun row in the store.
    const record = (ctx.inflight.has(id) ? await ctx.liveRecord(id) : null) ?? (await ctx.store.get(id));
    if (!record) return notFound(c, `exchange ${id}`);
    // The layout is derived on every read, so records of any version (0.1.0 included) get it.
    return c.json(withLayout(record));
  });

  api.get('/exchanges/:id/curl', async (c) => {
    const id = c.req.param('id');
    const record = (ctx.inflight.has(id) ? await ctx.liveRecord(id) : null) ?? (await ctx.store.get(id));
    if (!record) return notFound(c, `exchange ${id}`);
    return c.json({ command: curlCommand(record) });
  });

  api.delete('/exchanges', async (c) => {
    const deleted = await ctx.store.clear();
    ctx.hub.reset('history cleared');
    return c.json({ deleted });
  });

  // The paged session list from the store's roll-ups, 50 a page without `limit`: a report of every
  // session read every stored summary, which a months-long history cannot afford on one request.
  // Each session's threads, turns and cache report come from `/sessions/:id/report`.
  api.get('/sessions', async (c) => {
    const q = query(c, SessionListQuerySchema);
    if (!q.ok) return q.res;
    if (q.value.cursor && !decodeCursor(q.value.cursor)) return badRequest(c, 'cursor is not one this API gave');
    return c.json(await ctx.store.sessionList(q.value));
  });

  // One session's report, computed from that session's exchanges alone.
  api.get('/sessions/:id/report', async (c) => {
    const report = await ctx.store.sessionReport(c.req.param('id'));
    return report ? c.json(report) : notFound(c, `session ${c.req.param('id')}`);
  });

  api.delete('/sessions/:id', async (c) => {
    const deleted = await ctx.store.deleteSession(c.req.param('id'));
    if (deleted === 0) return notFound(c, `session ${c.req.param('id')}`);
    ctx.hub.reset('a session was deleted');
    return c.json({ deleted });
  });

  api.get('/usage', async (c) => {
    const q = query(c, UsageQuerySchema);
    if (!q.ok) return q.res;
    if (q.value.since !== undefined && q.value.until !== undefined && q.value.until <= q.value.since)
      return badRequest(c, 'until must be after since');
    return c.json(await ctx.store.usage(q.value));
  });

  api.post('/import', async (c) => {
    const b = await body(c, ImportRequestSchema);
    if (!b.ok) return b.res;
    const relative = [...b.value.codexHomes, ...b.value.files].find((p) => !path.isAbsolute(p));
    if (relative) return badRequest(c, `paths must be absolute: ${relative}`);
    return c.json(await ctx.imports.run(b.value));
  });

  api.get('/export', async (c) => {
    const q = query(c, ExportQuerySchema);
    if (!q.ok) return q.res;
    if (q.value.format === 'html' && !q.value.session) return badRequest(c, 'an HTML export is one session: pass session');
    const { format, ...filter } = q.value;
    const f = EXPORT_FORMATS[format];
    const text = await ctx.store.export(format, filter);
    const name = `codex-devtools-${q.value.session ?? 'export'}.${f.extension}`.replace(/[^\w.-]/g, '_');
    return c.body(text, 200, { 'content-type': `${f.mediaType}; charset=utf-8`, 'content-disposition': `attachment; filename="${name}"` });
  });

  api.get('/ratelimits', (c) => c.json({ rateLimits: ctx.rateLimits.get() }));

  api.get('/status', async (c) => {
    const s = await ctx.store.stats();
    const stats = ctx.captureStats();
    return c.json({
      version: COMPANION_VERSION,
      capture: ctx.capture.state(),
      store: s,
      addonFailures: stats.addonFailures,
      droppedCaptureChunks: stats.droppedChunks,
      analysisFailures: stats.analysisFailures,
      priceErrors: stats.priceErrors,
      liveClients: ctx.hub.size,
      export: ctx.exportStatus(),
    });
  });

  api.post('/capture/pause', (c) => c.json(ctx.capture.setPaused(true)));
  api.post('/capture/resume', (c) => c.json(ctx.capture.setPaused(false)));

  api.post('/prune', async (c) => {
    const pruned = await ctx.store.prune();
    if (pruned.deleted) ctx.hub.reset('old sessions were pruned');
    return c.json(pruned);
  });

  api.get('/profiles', (c) => c.json({ activeId: ctx.profiles.activeId, profiles: ctx.profiles.list() }));

  api.post('/profiles', async (c) => {
    const b = await body(c, ProfileInputSchema);
    if (!b.ok) return b.res;
    try {
      return c.json(ctx.profiles.upsert(b.value));
    } catch (err) {
      if (err instanceof ProfileError) return badRequest(c, err.message);
      throw err;
    }
  });

  api.post('/profiles/active', async (c) => {
    const b = await body(c, ActivateProfileSchema);
    if (!b.ok) return b.res;
    try {
      return c.json(ctx.profiles.activate(b.value.id));
    } catch (err) {
      if (err instanceof ProfileError) return notFound(c, `profile ${b.value.id}`);
      throw err;
    }
  });

  api.delete('/profiles/:id', (c) => {
    try {
      return ctx.profiles.remove(c.req.param('id')) ? c.json({ removed: true }) : notFound(c, `profile ${c.req.param('id')}`);
    } catch (err) {
      if (err instanceof ProfileError) return badRequest(c, err.message);
      throw err;
    }
  });

  api.notFound((c) => c.json({ error: 'not_found', message: `no API route ${c.req.method} ${c.req.path}` }, 404));
  api.onError((err, c) => {
    // The history's worker busy or gone: the client may retry; nothing is wrong with the request.
    if (err instanceof Unavailable) return c.json({ error: 'unavailable', message: err.message }, 503);
    ctx.log.error(`API ${c.req.method} ${c.req.path} failed: ${describeError(err)}`);
    return c.json(INTERNAL_ERROR, 500);
  });
  return api;
}
