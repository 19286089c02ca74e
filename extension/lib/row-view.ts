/** One list row's cells from a summary (and live progress): formatted honestly, unknown as "—", parts beside their wholes. */
import type { ExchangeSummary } from '../../companion/protocol';
import { verdictLabel } from './cache-verdict';
import { kindOf } from './exchange-filter';
import { modelView } from './model-view';
import { UNKNOWN, fmtClock, fmtDuration, fmtInt, fmtRatio, fmtUsd } from './format';
import { tokenFigures } from './token-figures';

export interface RowProgress {
  estimatedOutputTokens: number;
  outputChars: number;
}

export interface RowView {
  time: string;
  status: string;
  statusTone: 'ok' | 'warn' | 'error' | 'busy';
  statusTitle: string;
  kind: string;
  transport: string | null;
  agent: string;
  agentTitle: string;
  model: string;
  modelTitle: string;
  input: string;
  cached: string;
  output: string;
  /** Output is an estimate from the streamed text, not a reported count. */
  outputEstimated: boolean;
  reasoning: string;
  cache: string;
  cacheMiss: boolean;
  cacheTitle: string;
  cost: string;
  duration: string;
  preview: string;
}

const TONE: Record<ExchangeSummary['status'], RowView['statusTone']> = {
  streaming: 'busy',
  completed: 'ok',
  incomplete: 'warn',
  failed: 'error',
  aborted: 'error',
  upstream_error: 'error',
};

export function agentLabel(s: ExchangeSummary): string {
  if (s.agent.role === 'main') return 'main';
  const name = s.agent.name && s.agent.name !== '/root' ? s.agent.name.replace(/^\/root\//, '') : null;
  return [s.agent.nickname, name].filter(Boolean).join(' · ') || 'sub-agent';
}

export function rowView(s: ExchangeSummary, progress: RowProgress | null, now: number): RowView {
  const t = tokenFigures(s.usage);
  const streaming = s.status === 'streaming';
  const estimated = streaming && t.output === null && progress !== null;
  const reasons = s.cache?.reasons ?? [];
  const m = modelView(s);
  return {
    time: fmtClock(s.startedAt),
    status: s.httpStatus && s.httpStatus >= 400 ? `${s.status} ${s.httpStatus}` : s.status,
    statusTone: TONE[s.status],
    statusTitle: s.error ? `${s.error.code}: ${s.error.message}` : s.captureComplete ? s.status : `${s.status} (capture incomplete)`,
    kind: kindOf(s) === 'other' && s.kind === 'other' ? `${s.method} ${s.path}` : kindOf(s),
    transport: s.transport === 'websocket' ? 'ws' : null,
    agent: agentLabel(s),
    agentTitle: [s.agent.role === 'main' ? 'main agent' : 'sub-agent', s.agent.name, s.agent.nickname, s.threadId]
      .filter(Boolean)
      .join(' · '),
    model: m.text,
    modelTitle: m.title,
    input: fmtInt(t.input),
    cached: fmtInt(t.cached),
    output: estimated ? `~${fmtInt(progress?.estimatedOutputTokens ?? null)}` : fmtInt(t.output),
    outputEstimated: estimated,
    reasoning: fmtInt(t.reasoning),
    cache: !s.cache ? UNKNOWN : s.cache.verdict === 'not_applicable' ? 'n/a' : fmtRatio(s.cache.hitRate, 0, UNKNOWN),
    cacheMiss: s.cache?.miss ?? false,
    cacheTitle: !s.cache
      ? 'no cache figures'
      : [
          `${verdictLabel(s.cache.verdict).text}: ${s.cache.why ?? 'hit rate = cached / input'}`,
          reasons.length ? `reasons: ${reasons.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join(' · '),
    cost: streaming ? '…' : fmtUsd(s.costUsd),
    duration: fmtDuration((s.endedAt ?? (streaming ? now : null)) === null ? null : (s.endedAt ?? now) - s.startedAt),
    preview: s.preview ?? (s.error ? s.error.message : ''),
  };
}
