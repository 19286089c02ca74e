/**
 * @module What the analysis stage adds to an exchange (cache hit/miss with reasons, the diff
 * against the previous request of its thread, the context breakdown, the cost) and the roll-ups
 * served by the usage and session APIs. Schema module: long by design, one schema per idea.
 */
import { z } from 'zod';
import { CACHE_REASON_CODES } from './cache-reason-codes';
import { TextCodeSchema } from './text-code';
import { UsageTotalsSchema } from './usage';

const tokens = z.number().int().nonnegative();
const usd = z.number().nonnegative();

// ---------------------------------------------------------------------------------------------
// Cache
// ---------------------------------------------------------------------------------------------

/**
 * Why a request read fewer cached tokens than the previous request on its key had left.
 * `cold` is no longer a reason (it is a verdict); it stays readable in analyses stored before.
 */
export const CacheReasonCodeSchema = z.enum(CACHE_REASON_CODES);
export type CacheReasonCode = z.infer<typeof CacheReasonCodeSchema>;

/** One reason with its evidence, e.g. `{ code: 'tools_changed', detail: 'added exec_command' }`. */
export const CacheReasonSchema = z.object({
  code: CacheReasonCodeSchema,
  /** The evidence in English: the `detailCodes` sentences joined by `; `. */
  detail: z.string(),
  /** The evidence as coded sentences, in order; null in analyses stored before they existed. */
  detailCodes: z.array(TextCodeSchema).nullable().default(null),
});
export type CacheReason = z.infer<typeof CacheReasonSchema>;

/**
 * The cache verdict of one exchange, always with its why:
 * - `hit`: cached tokens reached what the previous request left cacheable (or more);
 * - `miss`: they fell short by more than the threshold (reasons say why);
 * - `cold`: nothing was read from the cache and nothing was to be expected (first of its thread);
 * - `unknown`: the upstream did not report the cache field, or the expectation is unknown;
 * - `not_applicable`: there is nothing to judge: no usage (the request failed before the model,
 *   e.g. a 429) or no input (a WebSocket prewarm), or not a model request.
 */
export const CacheVerdictSchema = z.enum(['hit', 'miss', 'cold', 'unknown', 'not_applicable']);
export type CacheVerdict = z.infer<typeof CacheVerdictSchema>;

/**
 * Cache figures of one exchange.
 * @example { verdict: 'hit', why: 'read 8,064 cached tokens; 8,192 were expected', hitRate: 0.98, … }
 */
export const CacheAnalysisSchema = z.object({
  /** Analyses stored before verdicts existed read as `unknown` until they are recomputed. */
  verdict: CacheVerdictSchema.default('unknown'),
  /** One sentence saying why the verdict is what it is, with the figures behind it. */
  why: z.string().default('analysed before cache verdicts existed'),
  /** `why` as a code the panel translates; null in analyses stored before it existed. */
  whyCode: TextCodeSchema.nullable().default(null),
  /** cached / input; null when the upstream reported no cache field (never shown as 0 %). */
  hitRate: z.number().min(0).max(1).nullable(),
  /**
   * What the previous request of the chain left cacheable: its input plus output, in 128-token
   * blocks, 0 below 1,024, and never more than this request's own input could hold. 0 for the
   * first request; null when the previous usage, or this request's, is unknown.
   */
  expectedCachedTokens: tokens.nullable(),
  /** `verdict === 'miss'`, kept as a flag for list filters and roll-ups. */
  miss: z.boolean(),
  /** Why a miss missed, with evidence; empty for every other verdict. */
  reasons: z.array(CacheReasonSchema),
  /** The exchange this one was compared with (same thread), or null. */
  previousId: z.string().nullable(),
  /** Milliseconds from the end of the previous request to the start of this one. */
  idleMs: z.number().nonnegative().nullable(),
  /** On a miss: uncached input tokens that would have been cached (≤ input − cached). */
  missedTokens: tokens.nullable(),
  /** On a miss: what those tokens cost above the cached rate; null when unpriced. */
  missCostUsd: usd.nullable(),
});
export type CacheAnalysis = z.infer<typeof CacheAnalysisSchema>;

// ---------------------------------------------------------------------------------------------
// Diff against the previous request of the thread
// ---------------------------------------------------------------------------------------------

/** Where a tool travels in the request. `exec` means declared inside the code-mode exec description. */
export const ToolPlacementSchema = z.enum(['tools', 'additional_tools', 'exec', 'tool_search_output']);
export type ToolPlacement = z.infer<typeof ToolPlacementSchema>;

/** `builtin` Codex tools, `hosted` OpenAI tools (web_search, …), `mcp` servers' tools, `dynamic` others. */
export const ToolKindSchema = z.enum(['builtin', 'hosted', 'mcp', 'dynamic']);
export type ToolKind = z.infer<typeof ToolKindSchema>;

export const ToolRefSchema = z.object({
  /** Unique within a request: `exec_command`, `collaboration.spawn_agent`, `exec/clock.curr_time`. */
  key: z.string(),
  namespace: z.string().nullable(),
  name: z.string(),
  placement: ToolPlacementSchema,
  kind: ToolKindSchema,
});
export type ToolRef = z.infer<typeof ToolRefSchema>;

export const ToolChangeSchema = ToolRefSchema.extend({
  /** Which parts differ: `description`, `parameters`, `format`, `type`, `namespace_description`, `other`. */
  fields: z.array(z.string()),
});
export type ToolChange = z.infer<typeof ToolChangeSchema>;

/** One input item as the diff shows it. */
export const ItemRefSchema = z.object({
  /** Position in the `input` array of the request it belongs to. */
  index: z.number().int().nonnegative(),
  type: z.string(),
  role: z.string().nullable(),
  /** Short human label: role and the first words, or the tool name. */
  label: z.string(),
  /** The label as a code the panel translates when the companion words it (`output call_1: …`), else null: captured content. */
  labelCode: TextCodeSchema.nullable().default(null),
});
export type ItemRef = z.infer<typeof ItemRefSchema>;

export const ItemChangeSchema = ItemRefSchema.extend({
  previousIndex: z.number().int().nonnegative(),
  /** Top-level fields whose value differs (`content`, `arguments`, `output`, `id`, …). */
  fields: z.array(z.string()),
});
export type ItemChange = z.infer<typeof ItemChangeSchema>;

/** A list of items, capped for the wire; `count` is the full number. */
const itemList = <T extends z.ZodTypeAny>(item: T) => z.object({ count: tokens, items: z.array(item) });

export const FieldChangeSchema = z.object({
  /** `model`, `reasoning_effort`, `service_tier`, `prompt_cache_key`, `instructions`, `upstream`, `profile`, `window_number`, … */
  field: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type FieldChange = z.infer<typeof FieldChangeSchema>;

/** Zone of the input a divergence falls in: tool catalogs, leading developer messages, the rest. */
export const InputZoneSchema = z.enum(['tools', 'instructions', 'conversation']);
export type InputZone = z.infer<typeof InputZoneSchema>;

/**
 * How a request differs from the previous request of its thread: computed once by the companion,
 * rendered by the panel's Diff tab.
 */
export const RequestDiffSchema = z.object({
  previousId: z.string().nullable(),
  /** Nothing but appended input (and transport fields such as `stream`) changed: the prompt prefix was preserved. */
  prefixPreserved: z.boolean(),
  /** First input index where the two requests differ (null when the previous input is a prefix). */
  firstDivergence: z.object({ index: z.number().int().nonnegative(), zone: InputZoneSchema }).nullable(),
  fields: z.array(FieldChangeSchema),
  tools: z.object({ added: z.array(ToolRefSchema), removed: z.array(ToolRefSchema), changed: z.array(ToolChangeSchema) }),
  /** The leading developer messages (Codex 0.169 sends no `instructions` field). */
  instructions: z.object({ added: itemList(ItemRefSchema), removed: itemList(ItemRefSchema), changed: itemList(ItemChangeSchema) }),
  /** The conversation after the leading tools and instructions. */
  input: z.object({
    previousCount: tokens,
    currentCount: tokens,
    /** Conversation items the two requests share from the start. */
    commonPrefix: tokens,
    /** Items after the preserved previous conversation; `echoed` of them repeat the previous output. */
    appended: itemList(ItemRefSchema),
    echoed: tokens,
    removed: itemList(ItemRefSchema),
    inserted: itemList(ItemRefSchema),
    changed: itemList(ItemChangeSchema),
    /** History replaced (compaction: window number changed, a compaction item or summary arrived). */
    rewritten: z.boolean(),
  }),
});
export type RequestDiff = z.infer<typeof RequestDiffSchema>;

// ---------------------------------------------------------------------------------------------
// Context breakdown
// ---------------------------------------------------------------------------------------------

/** The architecture's request sections: tools, instructions, input, other. */
export const SectionGroupSchema = z.enum(['tools', 'instructions', 'input', 'other']);
export type SectionGroup = z.infer<typeof SectionGroupSchema>;

/**
 * One section: `tool:exec_command`, `tool:exec/apply_patch`, `instructions`, `skills`,
 * `user instructions`, `environment context`, `conversation: user`, `tool outputs`, `reasoning`, …
 */
export const ContextSectionSchema = z.object({
  name: z.string(),
  group: SectionGroupSchema,
  /** For tool sections: where the tool travels and what kind it is. */
  tool: ToolRefSchema.nullable(),
  /** Raw o200k estimate of the section's text (see `ContextBreakdown.tokenizer`). */
  tokens,
  /** UTF-8 bytes of that text. */
  bytes: tokens,
  /** Input items (or tools) the section covers. */
  items: tokens,
  /** Bytes the tokenizer cannot see: encrypted reasoning/compaction content, images. */
  opaqueBytes: tokens,
  /**
   * The section's share of the reported input tokens (see `ContextCalibration`); null without
   * usage. The calibrated sections plus `unaccountedTokens` sum to the reported input.
   */
  calibratedTokens: tokens.nullable(),
});
export type ContextSection = z.infer<typeof ContextSectionSchema>;

/** A group's totals: the sums of its sections' figures (calibrated null when any is). */
export const GroupTotalsSchema = z.object({
  group: SectionGroupSchema,
  tokens,
  calibratedTokens: tokens.nullable(),
  bytes: tokens,
  opaqueBytes: tokens,
});
export type GroupTotals = z.infer<typeof GroupTotalsSchema>;

/**
 * How the raw estimate was fitted to the reported input. Within ×0.67–×1.5 of the estimate the
 * reported input is spread over the sections in proportion. Beyond ×1.5 the input holds much the
 * sections do not show (opaque or encrypted content, a compaction, elided text): the sections keep
 * their raw estimates and the rest is `unaccountedTokens`. Below ×0.67 the sections are scaled
 * down. Outside the band a warning says so and the raw view is the one to trust.
 */
export const ContextCalibrationSchema = z.object({
  /** reported ÷ raw estimate. */
  scale: z.number().nonnegative(),
  /** Reported input no section accounts for; 0 within the band. */
  unaccountedTokens: tokens,
  /** Why the calibrated view should not be trusted, or null within the band. */
  warning: z.string().nullable(),
  /** `warning` as a code the panel translates; null within the band and in analyses stored before it existed. */
  warningCode: TextCodeSchema.nullable().default(null),
});
export type ContextCalibration = z.infer<typeof ContextCalibrationSchema>;

export const ContextBreakdownSchema = z.object({
  /** `o200k_base`: counts of a plain-text rendering of each section, not the model's own framing. */
  tokenizer: z.string(),
  sections: z.array(ContextSectionSchema),
  /** Sum of the raw section estimates (equals the tokenizer's count of the whole rendering). */
  totalTokens: tokens,
  /** Reported input tokens the calibrated view is scaled to, or null. */
  reportedInputTokens: tokens.nullable(),
  /** The model's context window, or null when unknown. */
  contextWindow: tokens.nullable(),
  /** Reported input (else the raw estimate) over the context window; null when the window is unknown. */
  windowShare: z.number().nonnegative().nullable(),
  /** Null without reported input (or an empty estimate), and in analyses stored before it existed. */
  calibration: ContextCalibrationSchema.nullable().default(null),
  /** Totals per group, in Tools, Instructions, Input, Other order; groups without sections are left out. */
  groups: z.array(GroupTotalsSchema).default([]),
});
export type ContextBreakdown = z.infer<typeof ContextBreakdownSchema>;

// ---------------------------------------------------------------------------------------------
// Prices and cost
// ---------------------------------------------------------------------------------------------

/** USD per 1M tokens. `cacheWritePer1M` null: not published, cache writes billed as input. */
export const RatesSchema = z.object({
  inputPer1M: usd,
  cachedInputPer1M: usd,
  cacheWritePer1M: usd.nullable(),
  outputPer1M: usd,
});
export type Rates = z.infer<typeof RatesSchema>;

/** One published price: a model at a service tier, with where and when it was read. */
export const PriceRowSchema = z.object({
  /** Canonical model slug (`gpt-5-codex`). */
  model: z.string().min(1),
  /** Other names for the same model (snapshots without a date suffix, renamed slugs). */
  aliases: z.array(z.string()).default([]),
  /** `default` (standard), `flex`, `priority` (Codex "Fast"), … */
  tier: z.string().min(1),
  rates: RatesSchema,
  /** Rates for the whole request once its input exceeds `aboveInputTokens`. */
  longContext: z.object({ aboveInputTokens: tokens, rates: RatesSchema }).nullable().default(null),
  source: z.string().min(1),
  /** YYYY-MM-DD the source was read. */
  asOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  note: z.string().nullable().default(null),
});
export type PriceRow = z.infer<typeof PriceRowSchema>;

export const PriceTableSchema = z.object({ rows: z.array(PriceRowSchema) });
export type PriceTable = z.infer<typeof PriceTableSchema>;

/**
 * The user's override file: rows that replace built-in rows of the same model and tier (or add
 * new ones), and models to treat as unpriced.
 * @example { "rows": [{ "model": "gpt-6.1-sol", "tier": "default", "rates": {…}, "source": "my invoice", "asOf": "2026-11-29" }] }
 */
export const PriceOverridesSchema = z.object({
  rows: z.array(PriceRowSchema).default([]),
  unpriced: z.array(z.string()).default([]),
});
export type PriceOverrides = z.infer<typeof PriceOverridesSchema>;

/** How a cost was reached, so a figure can be traced back to raw fields and a source. */
export const CostBreakdownSchema = z.object({
  usd,
  /** Model as priced (after normalisation) and the tier used. */
  model: z.string(),
  tier: z.string(),
  longContext: z.boolean(),
  rates: RatesSchema,
  /** Token counts per rate: input − cached − cache write, cached, cache write, output (reasoning inside). */
  parts: z.object({ uncachedInput: tokens, cachedInput: tokens, cacheWrite: tokens, output: tokens }),
  /** What each part costs at its rate (cache write at the input rate when it has none); they sum to `usd`. */
  partsUsd: z.object({ uncachedInput: usd, cachedInput: usd, cacheWrite: usd, output: usd }).nullable().default(null),
  /** `api_equivalent` for ChatGPT-plan traffic, which is not billed per token. */
  basis: z.enum(['api', 'api_equivalent']),
  source: z.string(),
  asOf: z.string(),
});
export type CostBreakdown = z.infer<typeof CostBreakdownSchema>;

/**
 * Which model an exchange is priced as and how the price came out, in words the panel shows as
 * they are. The served model (the one the response names) is priced, because it did the work;
 * the model Codex requested is named beside it when they differ.
 */
export const PricingSchema = z.object({
  /** `priced`; `zero_tokens` (0 input and 0 output: $0 at any price); `no_usage`; `no_model`; `unpriced`. */
  status: z.enum(['priced', 'zero_tokens', 'no_usage', 'no_model', 'unpriced']),
  /** The served model: the response's, else the one sent upstream. */
  model: z.string().nullable(),
  /** The model Codex asked for. */
  requestedModel: z.string().nullable(),
  /** One sentence: what was priced and why, or why there is no price and how to add one. */
  note: z.string(),
  /** `note` as a code the panel translates; null in analyses stored before it existed. */
  noteCode: TextCodeSchema.nullable().default(null),
  /** For `unpriced`: a prices.json with a row to fill in for this model and tier. */
  example: z.string().nullable().default(null),
});
export type Pricing = z.infer<typeof PricingSchema>;

// ---------------------------------------------------------------------------------------------
// Facts for roll-ups, and the analysis as a whole
// ---------------------------------------------------------------------------------------------

/**
 * A `spawn_agent` call found in a parent's input: v1 answers `{agent_id, nickname}` (agent_id is
 * the child's thread id), v2 names the child `/root/<task_name>`.
 */
export const SpawnLinkSchema = z.object({
  callId: z.string(),
  /** `multi_agent_v1`, `collaboration`, `agents` or null. */
  namespace: z.string().nullable(),
  childThreadId: z.string().nullable(),
  childAgentName: z.string().nullable(),
  nickname: z.string().nullable(),
  taskName: z.string().nullable(),
  model: z.string().nullable(),
  reasoningEffort: z.string().nullable(),
  /** The call's raw `arguments` (truncated), shown under the child. */
  arguments: z.string(),
});
export type SpawnLink = z.infer<typeof SpawnLinkSchema>;

/** The few facts roll-ups need beyond a summary; small enough to keep beside it in an index. */
export const ExchangeFactsSchema = z.object({
  reasoningEffort: z.string().nullable(),
  serviceTier: z.string().nullable(),
  spawns: z.array(SpawnLinkSchema),
});
export type ExchangeFacts = z.infer<typeof ExchangeFactsSchema>;

export { ANALYSIS_VERSION } from './version';

/** Figures derived from one exchange's usage (analysis/token-math.ts), for the Usage tab. */
export const UsageFiguresSchema = z.object({
  /** max(0, input − cached), a missing cache field counting as 0 cached, as Codex counts it. */
  uncachedInput: tokens.nullable(),
  /** max(0, input − cached) + output: this exchange's part of Codex's "tokens used" formula. */
  blendedTokens: tokens.nullable(),
});
export type UsageFigures = z.infer<typeof UsageFiguresSchema>;

/** What `GET /api/exchanges/:id` carries as `analysis`. */
export const ExchangeAnalysisSchema = z.object({
  /** The ANALYSIS_VERSION that computed it: a stored analysis of another version is recomputed. */
  version: z.number().int(),
  /**
   * The price table it priced with (a hash of the built-in table and the user's overrides): an
   * edited `prices.json` recomputes analyses of another table. Null in analyses stored before it
   * existed, and when the caller named no table version.
   */
  pricesVersion: z.string().nullable().default(null),
  cache: CacheAnalysisSchema,
  diff: RequestDiffSchema.nullable(),
  context: ContextBreakdownSchema.nullable(),
  /** Null when the model is unpriced or usage is unknown: never 0 for "unknown". */
  costUsd: usd.nullable(),
  cost: CostBreakdownSchema.nullable(),
  /** Null in analyses stored before it existed. */
  pricing: PricingSchema.nullable().default(null),
  /** Null in analyses stored before it existed. */
  usage: UsageFiguresSchema.nullable().default(null),
  facts: ExchangeFactsSchema,
});
export type ExchangeAnalysis = z.infer<typeof ExchangeAnalysisSchema>;

// ---------------------------------------------------------------------------------------------
// Roll-ups
// ---------------------------------------------------------------------------------------------

/**
 * Why "all traffic" exceeds "as Codex counts", in the same formula Σ(max(0, input − cached) +
 * output): each uncounted exchange falls in the first bucket that applies.
 */
export const UncountedBreakdownSchema = z.object({
  subagentTokens: tokens,
  prewarmTokens: tokens,
  remoteCompactionTokens: tokens,
  /** Failed, aborted or otherwise unfinished responses that still reported usage. */
  unfinishedTokens: tokens,
  otherTokens: tokens,
});
export type UncountedBreakdown = z.infer<typeof UncountedBreakdownSchema>;

/** Token and cost totals of a set of exchanges (a session, a day, a model, a thread). */
export const UsageRollupSchema = UsageTotalsSchema.extend({
  /** Σ(max(0, input − cached) + output) over every model exchange with usage. */
  allTrafficTokens: tokens,
  uncounted: UncountedBreakdownSchema,
  /** Priced subtotal; unpriced exchanges are left out and counted below. */
  costUsd: usd,
  /** Part of `costUsd` from ChatGPT-plan traffic: an API-equivalent estimate, not a bill. */
  apiEquivalentUsd: usd,
  /** input + output tokens of exchanges with usage but no price (exchanges of 0 tokens cost $0 and are priced). */
  unpricedTokens: tokens,
  unpricedExchanges: tokens,
  /** Model exchanges that ended without usage: they add nothing to any sum. */
  unknownUsageExchanges: tokens,
  /** Σ cached / Σ input; null when no input was reported (never 0 %). */
  cachedShare: z.number().min(0).max(1).nullable(),
  /**
   * `priced`: every exchange with usage was priced (or there were none); `partial`: some were
   * not, so `costUsd` is a lower bound; `unknown`: exchanges happened but none was priced.
   */
  costStatus: z.enum(['priced', 'partial', 'unknown']),
});
export type UsageRollup = z.infer<typeof UsageRollupSchema>;

/** Totals of one turn (one user request and the model exchanges it took), for per-turn cost. */
export const TurnUsageSchema = UsageRollupSchema.extend({
  sessionId: z.string().nullable(),
  threadId: z.string().nullable(),
  turnId: z.string().nullable(),
  startedAt: z.number(),
});
export type TurnUsage = z.infer<typeof TurnUsageSchema>;

/** `GET /api/usage`: totals overall and grouped by session, day and model. */
export const UsageReportSchema = z.object({
  total: UsageRollupSchema,
  bySession: z.array(UsageRollupSchema.extend({ sessionId: z.string().nullable() })),
  /** Days in `timeZone` (YYYY-MM-DD). */
  byDay: z.array(UsageRollupSchema.extend({ day: z.string() })),
  byModel: z.array(UsageRollupSchema.extend({ model: z.string().nullable() })),
  timeZone: z.string(),
});
export type UsageReport = z.infer<typeof UsageReportSchema>;

/** A thread and its sub-agents, each with its own totals and the totals rolled up to it. */
export const ThreadNodeSchema = z.object({
  threadId: z.string(),
  agentName: z.string().nullable(),
  nickname: z.string().nullable(),
  role: z.enum(['main', 'subagent']),
  parentThreadId: z.string().nullable(),
  /** The parent's `spawn_agent` call that created this thread, when seen. */
  spawnedBy: SpawnLinkSchema.nullable(),
  models: z.array(z.string()),
  reasoningEfforts: z.array(z.string()),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  durationMs: z.number().nonnegative().nullable(),
  /** This thread's own exchanges. */
  own: UsageRollupSchema,
  /** This thread and all its descendants. */
  rolledUp: UsageRollupSchema,
  get children(): z.ZodArray<typeof ThreadNodeSchema> {
    return z.array(ThreadNodeSchema);
  },
});
export type ThreadNode = z.infer<typeof ThreadNodeSchema>;

/** `GET /api/sessions/:id/threads`: the session's thread tree (normally one root). */
export const SessionThreadsSchema = z.object({
  sessionId: z.string().nullable(),
  roots: z.array(ThreadNodeSchema),
});
export type SessionThreads = z.infer<typeof SessionThreadsSchema>;

/** One point of a session's hit-rate-over-time series. */
export const CachePointSchema = z.object({
  id: z.string(),
  startedAt: z.number(),
  threadId: z.string().nullable(),
  hitRate: z.number().nullable(),
  miss: z.boolean(),
});

export const CacheMissEntrySchema = z.object({
  id: z.string(),
  startedAt: z.number(),
  threadId: z.string().nullable(),
  reasons: z.array(CacheReasonCodeSchema),
  missedTokens: tokens.nullable(),
  missCostUsd: usd.nullable(),
});

/** Per-session cache report: hit rate over time, the misses with reasons, their share of full-price input. */
export const SessionCacheReportSchema = z.object({
  sessionId: z.string().nullable(),
  points: z.array(CachePointSchema),
  misses: z.array(CacheMissEntrySchema),
  /** Σ cached / Σ input over exchanges that reported a cache field; null when none did. */
  hitRate: z.number().nullable(),
  /** Σ max(0, input − cached): input billed at the full rate. */
  fullPriceInputTokens: tokens,
  /** Σ missed tokens over the misses. */
  missedTokens: tokens,
  /** missedTokens / fullPriceInputTokens; null when there was no full-price input. */
  missShare: z.number().nullable(),
  /** Σ miss cost over priced misses. */
  missCostUsd: usd,
});
export type SessionCacheReport = z.infer<typeof SessionCacheReportSchema>;
