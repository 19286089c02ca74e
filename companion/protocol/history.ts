/**
 * @module Query parameters and answers of the history API backed by the SQLite store: the
 * exchange list's filters, sorts and cursors, the paged session list, the costliest exchanges
 * and cache misses, and per-day roll-ups in the client's time zone. Every field a client did not
 * send keeps its 0.1.0 meaning, so older clients see the same list.
 */
import { z } from 'zod';
import { CacheVerdictSchema, UsageRollupSchema } from './analysis';
import { ExchangeSourceSchema, ExchangeSummarySchema, TransportSchema } from './exchange';

export const SortKeySchema = z.enum(['time', 'cost', 'input', 'output', 'cachedShare', 'duration', 'missCost']);
export type SortKeyName = z.infer<typeof SortKeySchema>;

/** `1` or `0` (a number, so clients can build query strings from the parsed type). */
const flag = z.coerce.number().int().min(0).max(1);
const epochMs = z.coerce.number().int().nonnegative();
/** An opaque cursor from a previous page (`nextCursor`). */
const cursor = z.string().max(400);
/** A local day, in the `tz` of the request. */
export const DaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is YYYY-MM-DD');
/** An IANA time zone name (`Europe/Paris`); the server checks that it knows it. */
const timeZone = z.string().min(1).max(64);

/** What `GET /api/exchanges` accepts beyond the 0.1.0 parameters (limit, before, session, thread, status, kind, q). */
export const ExchangeQueryExtensionSchema = z.object({
  cursor: cursor.optional(),
  /** A sub-agent's name or nickname. */
  agent: z.string().max(200).optional(),
  /** Requested, sent or served. */
  model: z.string().max(200).optional(),
  transport: TransportSchema.optional(),
  verdict: CacheVerdictSchema.optional(),
  source: ExchangeSourceSchema.optional(),
  minCost: z.coerce.number().nonnegative().optional(),
  minInput: z.coerce.number().int().nonnegative().optional(),
  /** `1`: only cache misses. */
  miss: flag.optional(),
  /** Start time, `since` inclusive, `until` exclusive. */
  since: epochMs.optional(),
  until: epochMs.optional(),
  /** Without `sort`: newest first, paged by `before` or `cursor`. */
  sort: SortKeySchema.optional(),
  order: z.enum(['asc', 'desc']).optional(),
});

/** The page fields added to the 0.1.0 list answer; absent from an older companion's answer. */
export const ExchangePageExtensionSchema = z.object({
  nextCursor: z.string().nullable().default(null),
  /**
   * How many exchanges match the filters, and how many are stored. With a text search the count
   * is exact up to the companion's cap (1,000) and otherwise the cap itself, with `matchedCapped`.
   */
  matched: z.number().int().nonnegative().nullable().default(null),
  /**
   * True: more exchanges match than the companion counted, so `matched` is a lower bound ("at
   * least 1,000"), never to be shown as exact. Absent (false) from an older companion, which
   * counted every match.
   *
   * @example `{ matched: 1000, matchedCapped: true }` reads "1,000+ of 100,000 stored".
   */
  matchedCapped: z.boolean().default(false),
  stored: z.number().int().nonnegative().nullable().default(null),
});

/** Sums as the history API shows them: a usage roll-up plus the cache misses and their cost. */
export const RollupTotalsSchema = UsageRollupSchema.extend({
  cacheMisses: z.number().int().nonnegative(),
  missCostUsd: z.number().nonnegative(),
});
export type RollupTotalsWire = z.infer<typeof RollupTotalsSchema>;

/**
 * `GET /api/sessions`: the paged session list, most recently active first, 50 a page unless
 * `limit` says otherwise; `nextCursor` goes back as `cursor`. (The form without parameters once
 * answered every session's full report, read from every stored summary; a session's threads,
 * turns and cache report are `GET /api/sessions/:id/report`.)
 */
export const SessionListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: cursor.optional(),
  q: z.string().max(200).optional(),
});

export const SessionRowSchema = RollupTotalsSchema.extend({
  sessionId: z.string().nullable(),
  /** The first prompt the user typed in the session. */
  title: z.string().nullable(),
  /** The working directory from Codex's `<environment_context>`. */
  cwd: z.string().nullable(),
  models: z.array(z.string()),
  startedAt: z.number(),
  /** The end of its latest exchange. */
  endedAt: z.number(),
  /** Exchanges of every kind (`exchanges` counts model exchanges, as every roll-up does). */
  rows: z.number().int().nonnegative(),
});
export type SessionRowWire = z.infer<typeof SessionRowSchema>;

export const SessionPageSchema = z.object({
  items: z.array(SessionRowSchema),
  nextCursor: z.string().nullable(),
  matched: z.number().int().nonnegative(),
  stored: z.number().int().nonnegative(),
});
export type SessionPage = z.infer<typeof SessionPageSchema>;

/** `GET /api/reports/expensive` and `/api/reports/cache-misses`: a session, a local day, or everything. */
export const TopExchangesQuerySchema = z.object({
  session: z.string().max(200).optional(),
  day: DaySchema.optional(),
  tz: timeZone.default('UTC'),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});

export const TopExchangesResponseSchema = z.object({ items: z.array(ExchangeSummarySchema) });
export type TopExchangesResponse = z.infer<typeof TopExchangesResponseSchema>;

/** `GET /api/usage/daily?tz=…`: sums per local day, from 15-minute roll-ups (times are rounded to them). */
export const DailyQuerySchema = z.object({
  tz: timeZone.default('UTC'),
  since: epochMs.optional(),
  until: epochMs.optional(),
  session: z.string().max(200).optional(),
  thread: z.string().max(200).optional(),
  model: z.string().max(200).optional(),
});

export const DailyResponseSchema = z.object({
  timeZone: z.string(),
  days: z.array(RollupTotalsSchema.extend({ day: DaySchema })),
});
export type DailyResponse = z.infer<typeof DailyResponseSchema>;
