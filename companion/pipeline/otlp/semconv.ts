/**
 * @module Attribute and metric names: the OpenTelemetry GenAI semantic conventions v1.41 (the
 * last release that holds them in the main semantic-conventions repository), and our own facts
 * under `codex.*`. Written out rather than imported: the incubating semconv package changes names
 * between releases, and the export must say exactly one version.
 */
export const SEMCONV_VERSION = '1.41.0';
export const SCHEMA_URL = `https://opentelemetry.io/schemas/${SEMCONV_VERSION}`;

export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  timeToFirstChunk: 'gen_ai.response.time_to_first_chunk',
  inputTokens: 'gen_ai.usage.input_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  reasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  tokenType: 'gen_ai.token.type',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  openaiServiceTier: 'openai.response.service_tier',
  errorType: 'error.type',
  serverAddress: 'server.address',
  serverPort: 'server.port',
} as const;

export const CODEX = {
  exchangeId: 'codex.exchange.id',
  sessionId: 'codex.session.id',
  threadId: 'codex.thread.id',
  turnId: 'codex.turn.id',
  parentThreadId: 'codex.parent_thread.id',
  parentTurnId: 'codex.parent_turn.id',
  agentRole: 'codex.agent.role',
  agentNickname: 'codex.agent.nickname',
  requestKind: 'codex.request.kind',
  transport: 'codex.transport',
  status: 'codex.status',
  counted: 'codex.counted',
  captureComplete: 'codex.capture.complete',
  costUsd: 'codex.cost.usd',
  costBasis: 'codex.cost.basis',
  costSource: 'codex.cost.source',
  costAsOf: 'codex.cost.as_of',
  cacheVerdict: 'codex.cache.verdict',
  cacheHitShare: 'codex.cache.hit_share',
  cacheMissReasons: 'codex.cache.miss_reasons',
  cacheMissedTokens: 'codex.cache.missed_tokens',
  cacheMissCostUsd: 'codex.cache.miss_cost.usd',
  rateLimitUsedPercent: 'codex.rate_limit.used_percent',
  rateLimitResetsAt: 'codex.rate_limit.resets_at',
  rateLimitSecondaryUsedPercent: 'codex.rate_limit.secondary.used_percent',
  rateLimitSecondaryResetsAt: 'codex.rate_limit.secondary.resets_at',
  turnExchanges: 'codex.turn.exchanges',
  turnTokensUsed: 'codex.turn.tokens_used',
  turnCostUsd: 'codex.turn.cost.usd',
  linkType: 'codex.link.type',
  imported: 'codex.imported',
} as const;

/** Metric names; their attributes are the bounded set in metrics.ts, never an id. */
export const METRIC = {
  tokenUsage: 'gen_ai.client.token.usage',
  operationDuration: 'gen_ai.client.operation.duration',
  cost: 'codex.client.cost',
  cacheMissedTokens: 'codex.client.cache.missed_tokens',
} as const;

/** Bucket boundaries the conventions advise for the two GenAI histograms. */
export const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
export const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
