/**
 * @module The GenAI client metrics and our cost and cache counters, from live exchanges only.
 * Attributes are a bounded set (operation, provider, model, agent role, request kind, error
 * type): never a session, thread, turn or exchange id, which would make a series per id.
 */
import type { Meter } from '@opentelemetry/api';
import type { ExchangeRecord } from '../../protocol/exchange';
import { DURATION_BUCKETS, GEN_AI, CODEX, METRIC, TOKEN_BUCKETS } from './semconv';

export type RecordMetrics = (r: ExchangeRecord) => void;

export function createMetrics(meter: Meter): RecordMetrics {
  const tokens = meter.createHistogram(METRIC.tokenUsage, {
    unit: '{token}',
    description: 'Tokens used per model exchange, by gen_ai.token.type (input includes cache reads; output includes reasoning).',
    advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
  });
  const duration = meter.createHistogram(METRIC.operationDuration, {
    unit: 's',
    description: 'Duration of a model exchange, from the request to the end of the response.',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const cost = meter.createCounter(METRIC.cost, {
    unit: 'USD',
    description: 'Cost of model exchanges at published API prices (an estimate for ChatGPT-plan traffic).',
  });
  const missed = meter.createCounter(METRIC.cacheMissedTokens, {
    unit: '{token}',
    description: 'Input tokens that a cache miss left uncached although the previous request had made them cacheable.',
  });

  return (r) => {
    if (r.kind !== 'model') return;
    const model = r.route.modelSent ?? r.model;
    const attrs: Record<string, string> = {
      [GEN_AI.operationName]: 'chat',
      [GEN_AI.providerName]: 'openai',
      [CODEX.agentRole]: r.agent.role,
      [CODEX.requestKind]: r.requestKind,
    };
    if (model) attrs[GEN_AI.requestModel] = model;
    const u = r.usage;
    if (u?.inputTokens != null) tokens.record(u.inputTokens, { ...attrs, [GEN_AI.tokenType]: 'input' });
    if (u?.outputTokens != null) tokens.record(u.outputTokens, { ...attrs, [GEN_AI.tokenType]: 'output' });
    if (r.endedAt !== null) {
      const failed = r.status !== 'completed' && r.status !== 'incomplete';
      duration.record(
        Math.max(0, r.endedAt - r.startedAt) / 1000,
        failed ? { ...attrs, [GEN_AI.errorType]: r.error?.code ?? r.status } : attrs,
      );
    }
    if (r.costUsd !== null) cost.add(r.costUsd, attrs);
    const m = r.analysis?.cache.missedTokens;
    if (m) missed.add(m, attrs);
  };
}
