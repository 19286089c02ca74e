/** @module Request validation for the API: zod schemas in, a 400 with a readable message out. */
import type { Context } from 'hono';
import type { z } from 'zod';
import { describeIssues } from '../protocol/issues';

export function badRequest(c: Context, message: string): Response {
  return c.json({ error: 'bad_request', message }, 400);
}

export function notFound(c: Context, what: string): Response {
  return c.json({ error: 'not_found', message: `${what} not found` }, 404);
}

const describe = (err: z.ZodError) => describeIssues(err, 'value');

/** Parses the query string; on failure returns the 400 response to send. */
export function query<S extends z.ZodType>(c: Context, schema: S): { ok: true; value: z.infer<S> } | { ok: false; res: Response } {
  const r = schema.safeParse(c.req.query());
  return r.success ? { ok: true, value: r.data } : { ok: false, res: badRequest(c, describe(r.error)) };
}

/** Parses a JSON body; on failure returns the 400 response to send. */
export async function body<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<{ ok: true; value: z.infer<S> } | { ok: false; res: Response }> {
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    return { ok: false, res: badRequest(c, 'the body must be JSON') };
  }
  const r = schema.safeParse(json);
  return r.success ? { ok: true, value: r.data } : { ok: false, res: badRequest(c, describe(r.error)) };
}
