/** @module Exchange records (one model request and its response) and their list summaries. */
import { z } from 'zod';
import { CacheVerdictSchema, ExchangeAnalysisSchema, ExchangeFactsSchema } from './analysis';
import { IdentitySchema, RequestKindSchema } from './identity';
import { RequestLayoutSchema } from './layout';
import { RateLimitsSchema } from './ratelimits';
import { TextCodeSchema } from './text-code';
import { UsageSchema } from './usage';

/**
 * `streaming` while the response arrives; `completed`, `incomplete` and `failed` follow the
 * upstream's own terminal event (an HTTP error status or a stream cut before its terminal event
 * is `failed` too); `aborted` when Codex went away first; `upstream_error` when the upstream
 * could not be reached or timed out.
 */
export const ExchangeStatusSchema = z.enum(['streaming', 'completed', 'incomplete', 'failed', 'aborted', 'upstream_error']);
export type ExchangeStatus = z.infer<typeof ExchangeStatusSchema>;

/** `model` for Responses requests; `other` for everything else forwarded (e.g. `/v1/models`). */
export const ExchangeKindSchema = z.enum(['model', 'other']);
export type ExchangeKind = z.infer<typeof ExchangeKindSchema>;

export const TransportSchema = z.enum(['http', 'websocket']);
export type Transport = z.infer<typeof TransportSchema>;

/**
 * Where a record comes from: `captured` on the wire by the proxy, or `rollout`, read back from
 * the session files Codex writes (which hold no headers, no tool schemas and no stream events).
 * Records stored before this field existed were all captured.
 */
export const ExchangeSourceSchema = z.enum(['captured', 'rollout']);
export type ExchangeSource = z.infer<typeof ExchangeSourceSchema>;

export const ExchangeErrorSchema = z.object({
  /** e.g. `http_429`, `response_failed`, `error_event`, `stream_truncated`, `upstream_unreachable`. */
  code: z.string(),
  message: z.string(),
  /** The upstream's own error type or code when it gave one (`usage_limit_reached`, …). */
  upstreamCode: z.string().nullable(),
});
export type ExchangeError = z.infer<typeof ExchangeErrorSchema>;

export const RouteSchema = z.object({
  profileId: z.string(),
  /** Base URL the request was forwarded to (no credentials, no query). */
  upstream: z.string(),
  /** How Codex authenticated, told from its headers: decides the default route. */
  auth: z.enum(['apikey', 'chatgpt', 'none']),
  /** The model Codex asked for and the one sent upstream (they differ under a profile override). */
  modelRequested: z.string().nullable(),
  modelSent: z.string().nullable(),
});
export type Route = z.infer<typeof RouteSchema>;

export const AgentSchema = z.object({
  role: z.enum(['main', 'subagent']),
  name: z.string().nullable(),
  nickname: z.string().nullable(),
});

/** The cache analysis figures a list row shows; the reasons' details come with the full record. */
export const CacheBriefSchema = z.object({
  /** Null in summaries stored before verdicts existed. */
  verdict: CacheVerdictSchema.nullable().default(null),
  why: z.string().nullable().default(null),
  /** `why` as a code the panel translates (see `CacheAnalysis.whyCode`). */
  whyCode: TextCodeSchema.nullable().default(null),
  hitRate: z.number().nullable(),
  miss: z.boolean(),
  reasons: z.array(z.string()),
  /** What the previous request of the thread left cacheable (see `CacheAnalysis`). */
  expectedCachedTokens: z.number().nullable().default(null),
  /** On a miss: the uncached tokens that would have been cached, and their extra cost. */
  missedTokens: z.number().nullable().default(null),
  missCostUsd: z.number().nullable().default(null),
});

/** What a list row needs. Travels on the live feed; never carries bodies. */
export const ExchangeSummarySchema = z.object({
  id: z.string(),
  kind: ExchangeKindSchema,
  transport: TransportSchema,
  status: ExchangeStatusSchema,
  /** Epoch milliseconds. */
  startedAt: z.number(),
  firstByteAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  method: z.string(),
  path: z.string(),
  httpStatus: z.number().nullable(),
  model: z.string().nullable(),
  requestKind: RequestKindSchema,
  sessionId: z.string().nullable(),
  threadId: z.string().nullable(),
  parentThreadId: z.string().nullable(),
  turnId: z.string().nullable(),
  agent: AgentSchema,
  usage: UsageSchema.nullable(),
  /** Whether this exchange enters Codex's own `tokens used` figure. */
  codexCounted: z.boolean(),
  error: ExchangeErrorSchema.nullable(),
  /** False when capture lost part of this exchange (queue overflow, parse failure); forwarding was not affected. */
  captureComplete: z.boolean(),
  route: RouteSchema,
  responseId: z.string().nullable(),
  /** First characters of the assistant's text, for the list. */
  preview: z.string().nullable(),
  requestBytes: z.number().nullable(),
  responseBytes: z.number().nullable(),
  cache: CacheBriefSchema.nullable(),
  /** Null when the model is unpriced or usage unknown; an API-equivalent estimate for ChatGPT-plan traffic. */
  costUsd: z.number().nullable(),
  /** Reasoning effort, service tier and sub-agent spawns, for thread roll-ups; null until analysed. */
  facts: ExchangeFactsSchema.nullable().default(null),
  source: ExchangeSourceSchema.default('captured'),
});
export type ExchangeSummary = z.infer<typeof ExchangeSummarySchema>;

/** One SSE event (or WebSocket server message) with its arrival time. */
export const StreamEventSchema = z.object({
  /** Milliseconds after the exchange started. */
  t: z.number(),
  type: z.string(),
  /** The parsed `data` JSON; the raw text when it was not valid JSON (then `invalid` is set). */
  data: z.unknown(),
  invalid: z.string().optional(),
});
export type StreamEvent = z.infer<typeof StreamEventSchema>;

/** An output item as the upstream sent it: every field kept, unknown types included. */
export const OutputItemSchema = z.looseObject({ type: z.string() });
export type OutputItem = z.infer<typeof OutputItemSchema>;

export const HeadersSchema = z.record(z.string(), z.string());

export const CapturedRequestSchema = z.object({
  method: z.string(),
  path: z.string(),
  query: z.string(),
  upstreamUrl: z.string().nullable(),
  /** Credentials removed (at most their last four characters remain). */
  headers: HeadersSchema,
  /** Bytes as Codex sent them (before any decoding). */
  bodyBytes: z.number(),
  /** `content-encoding` of the body as sent (`zstd`, `gzip`, …), or null. */
  bodyEncoding: z.string().nullable(),
  /** Decoded JSON body; over WebSocket, the rebuilt full request (see `websocketMessage`). */
  body: z.unknown(),
  /** Why `body` is missing or partial, if it is. */
  bodyNote: z.string().nullable(),
  /** WebSocket only: the literal `response.create` message Codex sent. */
  websocketMessage: z.unknown().optional(),
});
export type CapturedRequest = z.infer<typeof CapturedRequestSchema>;

export const CapturedResponseSchema = z.object({
  status: z.number().nullable(),
  headers: HeadersSchema,
  events: z.array(StreamEventSchema),
  output: z.array(OutputItemSchema),
  /** Non-streamed bodies (errors, `/models`): the parsed JSON, or text. */
  body: z.unknown().optional(),
  bodyNote: z.string().nullable(),
});
export type CapturedResponse = z.infer<typeof CapturedResponseSchema>;

export const ExchangeRecordSchema = ExchangeSummarySchema.extend({
  identity: IdentitySchema,
  request: CapturedRequestSchema,
  response: CapturedResponseSchema,
  rateLimits: RateLimitsSchema.nullable(),
  /** What went wrong while capturing (never while forwarding). */
  captureErrors: z.array(z.string()),
  /** Filled by the analysis stage. */
  analysis: ExchangeAnalysisSchema.optional(),
  /**
   * The request as the panel lays it out, derived from `request.body` by the companion each time
   * the record is served (never stored); null when the body was not captured.
   */
  layout: RequestLayoutSchema.nullable().optional(),
});
export type ExchangeRecord = z.infer<typeof ExchangeRecordSchema>;
