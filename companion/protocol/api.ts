/** @module REST API response shapes under `/api`. */
import { z } from 'zod';
import { SessionCacheReportSchema, SessionThreadsSchema, TurnUsageSchema, UsageReportSchema, UsageRollupSchema } from './analysis';
import { ExchangeSummarySchema } from './exchange';
import { CaptureStateSchema } from './live';
import { RateLimitsSchema } from './ratelimits';
import { ExchangePageExtensionSchema, ExchangeQueryExtensionSchema } from './history';

export const HealthResponseSchema = z.object({ ok: z.literal(true), version: z.string() });

export const ExchangeListResponseSchema = z
  .object({
    items: z.array(ExchangeSummarySchema),
    /** Pass as `before` for the next (older) page; null on the last page. */
    nextBefore: z.string().nullable(),
  })
  .extend(ExchangePageExtensionSchema.shape);
export type ExchangeListResponse = z.infer<typeof ExchangeListResponseSchema>;

export const ExchangeListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    before: z.string().max(64).optional(),
    session: z.string().max(200).optional(),
    thread: z.string().max(200).optional(),
    status: z.enum(['streaming', 'completed', 'incomplete', 'failed', 'aborted', 'upstream_error']).optional(),
    kind: z.enum(['model', 'other', 'turn', 'prewarm', 'compaction', 'unknown']).optional(),
    q: z.string().max(200).optional(),
  })
  .extend(ExchangeQueryExtensionSchema.shape);

export const RateLimitsResponseSchema = z.object({ rateLimits: RateLimitsSchema.nullable() });

/** One OTLP signal's export, as `/api/status` reports it. */
export const ExportSignalStatusSchema = z.object({
  /** Where it goes, credentials masked. */
  endpoint: z.string(),
  protocol: z.string(),
  /** Spans accepted by the backend; for metrics, export rounds accepted. */
  exported: z.number(),
  queued: z.number(),
  /**
   * Dropped, oldest first, because the queue was full while the backend did not accept (for
   * traces, imported exchanges still waiting to become spans count too).
   */
  dropped: z.number(),
  failures: z.number(),
  lastError: z.object({ message: z.string(), at: z.number() }).nullable(),
  lastSuccessAt: z.number().nullable(),
  /** When the next attempt after a failure is due (epoch ms), or null. */
  retryAt: z.number().nullable(),
});
export type ExportSignalStatus = z.infer<typeof ExportSignalStatusSchema>;

/** The OTLP export (`start --otlp-endpoint`); null when it is off. */
export const ExportStatusSchema = z.object({
  traces: ExportSignalStatusSchema.nullable(),
  metrics: ExportSignalStatusSchema.nullable(),
  /** Whether prompt, response and tool text is sent (`--otlp-content`). */
  content: z.boolean(),
});
export type ExportStatus = z.infer<typeof ExportStatusSchema>;

export const StatusResponseSchema = z.object({
  version: z.string(),
  capture: CaptureStateSchema,
  store: z.object({
    exchanges: z.number(),
    sessions: z.number(),
    bytes: z.number(),
    maxBytes: z.number(),
    /** Writes that did not reach the disk when made (each once, however often retried). */
    writeErrors: z.number(),
    /** True while writes fail; they are retried with backoff until they work. */
    writeFailing: z.boolean(),
    lastWriteError: z.object({ message: z.string(), at: z.number(), recoveredAt: z.number().nullable() }).nullable(),
    pendingWrites: z.number(),
    lostRecords: z.number(),
    corruptLines: z.number(),
  }),
  /** Capture addons that threw, by name (forwarding went on). */
  addonFailures: z.record(z.string(), z.number()),
  droppedCaptureChunks: z.number(),
  analysisFailures: z.number(),
  /** Problems in the user's price override file (the built-in table is used meanwhile). */
  priceErrors: z.array(z.string()),
  liveClients: z.number(),
  export: ExportStatusSchema.nullable().default(null),
});
export type StatusResponse = z.infer<typeof StatusResponseSchema>;
/** The store's write figures of a status: what the capture worker reports after every exchange. */
export type WriteHealth = Pick<
  StatusResponse['store'],
  'writeErrors' | 'writeFailing' | 'lastWriteError' | 'pendingWrites' | 'lostRecords'
>;

export const ErrorResponseSchema = z.object({ error: z.string(), message: z.string() });

/** `GET /api/exchanges/:id/curl`: the request as one shell command, credentials left out. */
export const CurlResponseSchema = z.object({ command: z.string() });

/**
 * `GET /api/usage?session=&since=&until=`: the totals ("as Codex counts" in `codexTokensUsed`
 * beside `allTrafficTokens`, `costUsd` priced subtotal and `unpricedTokens`), then breakdowns.
 */
export const UsageResponseSchema = UsageRollupSchema.extend({
  bySession: UsageReportSchema.shape.bySession,
  byDay: UsageReportSchema.shape.byDay,
  byModel: UsageReportSchema.shape.byModel,
  byThread: z.array(UsageRollupSchema.extend({ sessionId: z.string().nullable(), threadId: z.string().nullable() })),
  /** One row per turn of each thread (a sub-agent's turns are its own), oldest first. */
  byTurn: z.array(TurnUsageSchema),
  timeZone: z.string(),
});
export type UsageResponse = z.infer<typeof UsageResponseSchema>;

export const SessionReportSchema = z.object({
  sessionId: z.string().nullable(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  totals: UsageRollupSchema,
  threads: SessionThreadsSchema.shape.roots,
  /** The session's turns, oldest first: what each user request cost, per agent. */
  turns: z.array(TurnUsageSchema),
  cache: SessionCacheReportSchema,
});
export type SessionReport = z.infer<typeof SessionReportSchema>;

/** `POST /api/import`: what to read. Paths are absolute; homes are Codex homes (`CODEX_HOME`). */
export const ImportRequestSchema = z.object({
  codexHomes: z.array(z.string().min(1).max(4096)).max(64).default([]),
  files: z.array(z.string().min(1).max(4096)).max(10000).default([]),
});
export type ImportRequest = z.infer<typeof ImportRequestSchema>;

/** What an import did. Exchanges already known (captured or imported before) are `duplicates`. */
export const ImportReportSchema = z.object({
  files: z.number().int().nonnegative(),
  lines: z.number().int().nonnegative(),
  /** Lines skipped because they were not JSON, or not what their type promised. */
  malformed: z.number().int().nonnegative(),
  /** Threads (rollout files with a session_meta) read. */
  threads: z.number().int().nonnegative(),
  exchanges: z.number().int().nonnegative(),
  added: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  /** Files that could not be read, and the first problems of malformed JSONL lines. */
  errors: z.array(z.string()),
  /**
   * The newest rate-limit reading among the exchanges added (a rollout's token_count, a captured
   * exchange's headers), for the live state, which keeps it only when nothing newer is known.
   */
  rateLimits: RateLimitsSchema.nullable().default(null),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;
