/**
 * @module The live feed (`GET /api/live`, WebSocket): every message in both directions is one
 * member of these discriminated unions, named `resource/verb`. Clients load a snapshot, then
 * apply messages in `seq` order; a gap means "ask for `feed/resync`".
 */
import { z } from 'zod';
import { ExchangeSummarySchema } from './exchange';
import { ProfilePublicSchema } from './profile';
import { RateLimitsSchema } from './ratelimits';
import { UsageRollupSchema } from './analysis';
import { describeIssues } from './issues';

/** `full` (panel): summaries and live progress. `usage` (popup): usage, rate limits and profile only. */
export const FeedScopeSchema = z.enum(['full', 'usage']);
export type FeedScope = z.infer<typeof FeedScopeSchema>;

// ---- client → companion ----------------------------------------------------------------------

export const HelloSchema = z.object({
  type: z.literal('hello'),
  token: z.string(),
  protocol: z.number().int(),
  scope: FeedScopeSchema.default('full'),
});

export const ClientMessageSchema = z.discriminatedUnion('type', [
  HelloSchema,
  /** Asks for a fresh snapshot (after a gap in `seq`). */
  z.object({ type: z.literal('feed/resync') }),
  /** Asks for the new text of one exchange's output items (reasoning, tool calls, text) in its progress messages. */
  z.object({ type: z.literal('exchange/subscribe'), id: z.string().max(64) }),
  z.object({ type: z.literal('exchange/unsubscribe'), id: z.string().max(64) }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

// ---- companion → client ----------------------------------------------------------------------

export const CaptureStateSchema = z.object({
  paused: z.boolean(),
  /** Capture or storage failures so far (forwarding never stopped for them). */
  errors: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
  /** OTLP export failures so far and the last one; absent when export is off (capture is not affected). */
  exportFailures: z.number().int().nonnegative().optional(),
  exportLastError: z.string().nullable().optional(),
  /** Present when the last pause/resume took effect but could not be saved (e.g. a full disk). */
  saveError: z.string().optional(),
});
export type CaptureState = z.infer<typeof CaptureStateSchema>;

const seq = z.number().int().positive();

/** The popup's counters: today (in the companion's time zone) and the most recent session. */
export const LiveUsageSchema = z.object({
  timeZone: z.string(),
  today: UsageRollupSchema,
  session: z.object({ sessionId: z.string().nullable(), usage: UsageRollupSchema }).nullable(),
});
export type LiveUsage = z.infer<typeof LiveUsageSchema>;

export const SnapshotSchema = z.object({
  type: z.literal('feed/snapshot'),
  seq,
  protocol: z.number().int(),
  companionVersion: z.string(),
  /** Newest first; empty for `usage` clients. */
  exchanges: z.array(ExchangeSummarySchema),
  usage: LiveUsageSchema,
  rateLimits: RateLimitsSchema.nullable(),
  profile: ProfilePublicSchema,
  capture: CaptureStateSchema,
  /** Responses streaming now (the toolbar badge shows activity while any does). */
  streaming: z.number().int().nonnegative(),
});

/** What kind of output item a live item is; anything else streams no text of its own. */
export const LiveItemKindSchema = z.enum(['message', 'reasoning', 'function_call', 'custom_tool_call', 'other']);
export type LiveItemKind = z.infer<typeof LiveItemKindSchema>;

/**
 * New text of one output item since the previous progress message: reasoning summary text,
 * a tool call's arguments (or custom tool input) or the assistant's text. Appending every delta
 * of an `index` in order gives the item's live text.
 */
export const LiveItemDeltaSchema = z.object({
  /** The item's `output_index` in the response. */
  index: z.number().int().nonnegative(),
  kind: LiveItemKindSchema,
  /** The tool a call names (`namespace.name` inside a namespace); null for other kinds. */
  name: z.string().max(256).nullable(),
  delta: z.string(),
  /** The live text stops here (it reached the live cap); the stored record has all of it. */
  truncated: z.boolean().optional(),
});
export type LiveItemDelta = z.infer<typeof LiveItemDeltaSchema>;

/** The list row's line for a streaming exchange: the latest item with text, at most 160 characters of it. */
export const LivePreviewSchema = z.object({
  kind: LiveItemKindSchema,
  name: z.string().max(256).nullable(),
  text: z.string().max(160),
});
export type LivePreview = z.infer<typeof LivePreviewSchema>;

export const ProgressSchema = z.object({
  type: z.literal('exchange/progress'),
  seq,
  id: z.string(),
  events: z.number().int().nonnegative(),
  /** Characters streamed so far, every kind of delta (reasoning, tool arguments and input, text). */
  outputChars: z.number().int().nonnegative(),
  /** Estimated from every streamed delta (o200k); the reported count arrives with `exchange/completed`. */
  estimatedOutputTokens: z.number().int().nonnegative(),
  preview: LivePreviewSchema.nullable().optional(),
  /** New text of each item since the previous message; only for subscribers of this exchange. */
  items: z.array(LiveItemDeltaSchema).optional(),
});

export const ServerMessageSchema = z.discriminatedUnion('type', [
  SnapshotSchema,
  z.object({ type: z.literal('exchange/started'), seq, exchange: ExchangeSummarySchema }),
  ProgressSchema,
  z.object({ type: z.literal('exchange/completed'), seq, exchange: ExchangeSummarySchema }),
  /** Facts that arrive later, e.g. a sub-agent's nickname. */
  z.object({ type: z.literal('exchange/updated'), seq, exchange: ExchangeSummarySchema }),
  z.object({ type: z.literal('usage/updated'), seq, usage: LiveUsageSchema }),
  z.object({ type: z.literal('ratelimits/updated'), seq, rateLimits: RateLimitsSchema }),
  z.object({ type: z.literal('profile/changed'), seq, profile: ProfilePublicSchema }),
  z.object({ type: z.literal('capture/changed'), seq, capture: CaptureStateSchema }),
  /** How many responses are streaming now, whenever that changes (to every scope). */
  z.object({ type: z.literal('activity/changed'), seq, streaming: z.number().int().nonnegative() }),
  /** History changed under the client (cleared, pruned, or the client fell behind): load a new snapshot. */
  z.object({ type: z.literal('feed/reset'), seq, reason: z.string() }),
  /** Keeps idle connections (and an MV3 service worker holding one) alive. */
  z.object({ type: z.literal('feed/heartbeat'), at: z.number() }),
  z.object({
    type: z.literal('feed/error'),
    code: z.enum(['unauthorized', 'protocol_mismatch', 'bad_message', 'hello_timeout']),
    message: z.string(),
    /** For `protocol_mismatch`: which side to update. */
    update: z.enum(['extension', 'companion']).optional(),
  }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
export type ServerMessageType = ServerMessage['type'];

export type Parsed<T> = { ok: true; message: T } | { ok: false; error: string };

/** Parses one raw frame against a message schema; never throws. */
function parseFrame<T>(schema: z.ZodType<T>, raw: string): Parsed<T> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  const r = schema.safeParse(json);
  return r.success ? { ok: true, message: r.data } : { ok: false, error: describeIssues(r.error, 'message') };
}

/** Parses a client frame (companion side). */
export const parseClientMessage = (raw: string): Parsed<ClientMessage> => parseFrame(ClientMessageSchema, raw);

/** Parses a companion frame (extension side). */
export const parseServerMessage = (raw: string): Parsed<ServerMessage> => parseFrame(ServerMessageSchema, raw);

/** Exhaustiveness guard for switches over message types. */
export function assertNever(x: never): never {
  throw new Error(`unhandled message type: ${JSON.stringify(x)}`);
}
