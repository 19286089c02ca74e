/**
 * @module Exchange records as GenAI spans (pure: no SDK here). One trace per turn: an
 * `invoke_agent {agent}` root span per turn and one `chat {model}` CLIENT span per model
 * exchange under it. Token counts sit only on the chat spans, so a backend that sums usage over
 * a trace does not count a turn twice; the root carries the turn's totals under `codex.turn.*`.
 */
import { blendedTokens } from '../../analysis';
import type { ExchangeRecord } from '../../protocol/exchange';
import { inputMessages, outputMessages, systemInstructions } from './content';
import { exchangeSpanIdOf, traceIdOf, turnSpanIdOf, type TurnKey } from './ids';
import { CODEX, GEN_AI } from './semconv';

export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

export interface SpanLink {
  traceId: string;
  spanId: string;
  attributes: Attributes;
}

/** What the exporter turns into one SDK span. Times are epoch milliseconds. */
export interface SpanSpec {
  name: string;
  kind: 'client' | 'internal';
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  links: SpanLink[];
  /** Set when the exchange failed: the span's status is ERROR with this message. */
  error: string | null;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sets `key` only when the value is known: unknown is left out, never sent as 0. */
function put(a: Attributes, key: string, value: AttributeValue | null | undefined): void {
  if (value !== null && value !== undefined && value !== '') a[key] = value;
}

/** The turn an exchange belongs to; an exchange without a turn id (a prewarm) is a turn of its own. */
export function turnKeyOf(r: ExchangeRecord): TurnKey {
  return { threadId: r.threadId ?? r.sessionId ?? 'unknown', turnId: r.turnId ?? `exchange:${r.id}` };
}

/** The `response` object of the terminal event, where the upstream says which model answered. */
function terminalResponse(r: ExchangeRecord): Json | null {
  for (let i = r.response.events.length - 1; i >= 0; i--) {
    const d = r.response.events[i].data;
    if (isObj(d) && isObj(d.response) && /^response\.(completed|incomplete|failed)$/.test(r.response.events[i].type)) return d.response;
  }
  return null;
}

/** The Responses API has no finish reason; this is the one the conventions' vocabulary comes closest to. */
export function finishReason(r: ExchangeRecord): string | null {
  switch (r.status) {
    case 'completed':
      return r.response.output.some((o) => /(^|_)call$/.test(o.type)) ? 'tool_calls' : 'stop';
    case 'incomplete':
      return r.error?.upstreamCode === 'max_output_tokens' ? 'length' : (r.error?.upstreamCode ?? 'incomplete');
    case 'streaming':
      return null;
    default:
      return 'error';
  }
}

function server(upstream: string, a: Attributes): void {
  try {
    const u = new URL(upstream);
    put(a, GEN_AI.serverAddress, u.hostname);
    put(a, GEN_AI.serverPort, Number(u.port || (u.protocol === 'https:' ? 443 : 80)));
  } catch {
    // No upstream (refused before forwarding): nothing to say about the server.
  }
}

export function agentName(r: ExchangeRecord): string {
  return r.agent.nickname ?? r.agent.name ?? 'codex';
}

/** The `chat {model}` CLIENT span of one model exchange, a child of its turn's root span. */
export function chatSpan(r: ExchangeRecord, opts: { content: boolean; imported?: boolean }): SpanSpec {
  const key = turnKeyOf(r);
  const response = terminalResponse(r);
  const requestModel = r.route.modelSent ?? r.model;
  const responseModel = typeof response?.model === 'string' ? response.model : null;
  const a: Attributes = {};
  put(a, GEN_AI.operationName, 'chat');
  put(a, GEN_AI.providerName, 'openai');
  put(a, GEN_AI.conversationId, r.threadId);
  put(a, GEN_AI.agentName, agentName(r));
  put(a, GEN_AI.requestModel, requestModel);
  put(a, GEN_AI.responseModel, responseModel);
  put(a, GEN_AI.responseId, r.responseId);
  const finish = finishReason(r);
  if (finish) a[GEN_AI.finishReasons] = [finish];
  const first = r.response.events[0]?.t;
  put(a, GEN_AI.timeToFirstChunk, first === undefined ? null : first / 1000);
  const u = r.usage;
  put(a, GEN_AI.inputTokens, u?.inputTokens);
  put(a, GEN_AI.cacheReadInputTokens, u?.cachedTokens);
  put(a, GEN_AI.cacheCreationInputTokens, u?.cacheWriteTokens);
  put(a, GEN_AI.outputTokens, u?.outputTokens);
  put(a, GEN_AI.reasoningOutputTokens, u?.reasoningTokens);
  put(a, GEN_AI.openaiServiceTier, typeof response?.service_tier === 'string' ? response.service_tier : r.facts?.serviceTier);
  if (r.error) put(a, GEN_AI.errorType, r.error.upstreamCode ?? r.error.code);
  server(r.route.upstream, a);

  put(a, CODEX.exchangeId, r.id);
  put(a, CODEX.sessionId, r.sessionId);
  put(a, CODEX.threadId, r.threadId);
  put(a, CODEX.turnId, r.turnId);
  put(a, CODEX.parentThreadId, r.parentThreadId);
  put(a, CODEX.agentRole, r.agent.role);
  put(a, CODEX.agentNickname, r.agent.nickname);
  put(a, CODEX.requestKind, r.requestKind);
  put(a, CODEX.transport, r.transport);
  put(a, CODEX.status, r.status);
  put(a, CODEX.counted, r.codexCounted);
  put(a, CODEX.captureComplete, r.captureComplete);
  if (opts.imported) put(a, CODEX.imported, true);
  const cost = r.analysis?.cost ?? null;
  put(a, CODEX.costUsd, r.costUsd);
  put(a, CODEX.costBasis, cost?.basis);
  put(a, CODEX.costSource, cost?.source);
  put(a, CODEX.costAsOf, cost?.asOf);
  const cache = r.analysis?.cache ?? null;
  if (cache) {
    // The analysis' own verdict (hit, miss, cold, unknown, not_applicable): one rule, in analysis/cache.ts.
    put(a, CODEX.cacheVerdict, cache.verdict);
    put(a, CODEX.cacheHitShare, cache.hitRate);
    if (cache.reasons.length) a[CODEX.cacheMissReasons] = cache.reasons.map((x) => x.code);
    put(a, CODEX.cacheMissedTokens, cache.missedTokens);
    put(a, CODEX.cacheMissCostUsd, cache.missCostUsd);
  }
  const limit = r.rateLimits?.codex[0];
  put(a, CODEX.rateLimitUsedPercent, limit?.primary?.usedPercent);
  put(a, CODEX.rateLimitResetsAt, limit?.primary?.resetsAt);
  put(a, CODEX.rateLimitSecondaryUsedPercent, limit?.secondary?.usedPercent);
  put(a, CODEX.rateLimitSecondaryResetsAt, limit?.secondary?.resetsAt);

  if (opts.content) {
    put(a, GEN_AI.systemInstructions, systemInstructions(r.request.body));
    put(a, GEN_AI.inputMessages, inputMessages(r.request.body));
    put(a, GEN_AI.outputMessages, outputMessages(r.response.output, finish));
  }

  return {
    name: requestModel ? `chat ${requestModel}` : 'chat',
    kind: 'client',
    traceId: traceIdOf(key),
    spanId: exchangeSpanIdOf(r.id),
    parentSpanId: turnSpanIdOf(key),
    startMs: r.startedAt,
    endMs: r.endedAt ?? r.startedAt,
    attributes: a,
    links: [],
    error: r.status === 'completed' || r.status === 'incomplete' ? null : (r.error?.message ?? r.status),
  };
}

/** A turn seen so far: what its root span will say once the turn is over. */
export class TurnSpan {
  readonly key: TurnKey;
  private startMs = Infinity;
  private endMs = -Infinity;
  private exchanges = 0;
  private tokensUsed: number | null = null;
  private costUsd: number | null = null;
  private failed: string | null = null;
  lastSeenAt = 0;

  constructor(
    private readonly first: ExchangeRecord,
    private readonly imported = false,
  ) {
    this.key = turnKeyOf(first);
  }

  add(r: ExchangeRecord, now: number): void {
    this.startMs = Math.min(this.startMs, r.startedAt);
    this.endMs = Math.max(this.endMs, r.endedAt ?? r.startedAt);
    this.exchanges++;
    this.lastSeenAt = now;
    const blended = blendedTokens(r.usage);
    if (blended !== null) this.tokensUsed = (this.tokensUsed ?? 0) + blended;
    if (r.costUsd !== null) this.costUsd = (this.costUsd ?? 0) + r.costUsd;
    this.failed = r.status === 'completed' || r.status === 'incomplete' ? null : (r.error?.message ?? r.status);
  }

  toSpec(): SpanSpec {
    const r = this.first;
    const agent = agentName(r);
    const a: Attributes = {};
    put(a, GEN_AI.operationName, 'invoke_agent');
    put(a, GEN_AI.providerName, 'openai');
    put(a, GEN_AI.agentName, agent);
    put(a, GEN_AI.agentId, r.threadId);
    put(a, GEN_AI.conversationId, r.threadId);
    put(a, GEN_AI.requestModel, r.route.modelSent ?? r.model);
    put(a, CODEX.sessionId, r.sessionId);
    put(a, CODEX.threadId, r.threadId);
    put(a, CODEX.turnId, r.turnId);
    put(a, CODEX.parentThreadId, r.identity.parentThreadId);
    put(a, CODEX.parentTurnId, r.identity.parentTurnId);
    put(a, CODEX.agentRole, r.agent.role);
    put(a, CODEX.agentNickname, r.agent.nickname);
    put(a, CODEX.requestKind, r.requestKind);
    put(a, CODEX.turnExchanges, this.exchanges);
    put(a, CODEX.turnTokensUsed, this.tokensUsed);
    put(a, CODEX.turnCostUsd, this.costUsd);
    if (this.imported) put(a, CODEX.imported, true);
    const links: SpanLink[] = [];
    const { parentThreadId, parentTurnId } = r.identity;
    if (parentThreadId && parentTurnId) {
      const parent = { threadId: parentThreadId, turnId: parentTurnId };
      links.push({ traceId: traceIdOf(parent), spanId: turnSpanIdOf(parent), attributes: { [CODEX.linkType]: 'spawned_by' } });
    }
    return {
      name: `invoke_agent ${agent}`,
      kind: 'internal',
      traceId: traceIdOf(this.key),
      spanId: turnSpanIdOf(this.key),
      parentSpanId: null,
      startMs: this.startMs,
      endMs: Math.max(this.startMs, this.endMs),
      attributes: a,
      links,
      error: this.failed,
    };
  }
}
