/** One list row's cells from a summary (and live progress): formatted honestly, unknown as "—", parts beside their wholes. */
import type { ExchangeSummary, LivePreview } from '../../companion/protocol';
import { verdictLabel } from './cache-verdict';
import { kindOf } from './exchange-filter';
import { modelView } from './model-view';
import { companionErrorText } from './companion-errors';
import { companionText } from './companion-text';
import { UNKNOWN, fmtClock, fmtDuration, fmtInt, fmtRatio, fmtUsd } from './format';
import { tr } from './i18n';

export interface RowProgress {
  estimatedOutputTokens: number;
  outputChars: number;
  preview?: LivePreview | null;
}

/** A streaming row's line: what is being written now, said as the stored preview would say it. */
export function livePreviewText(p: LivePreview): string {
  switch (p.kind) {
    case 'reasoning':
      return tr('row.liveReasoning', { text: p.text });
    case 'function_call':
    case 'custom_tool_call':
      return `→ ${[p.name, p.text].filter(Boolean).join(' ')}`;
    case 'message':
    case 'other':
      return p.text;
  }
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
  /** No price: the exchange's cost is unknown (not $0). */
  costUnknown: boolean;
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
  if (s.agent.role === 'main') return tr('agent.main');
  const name = s.agent.name && s.agent.name !== '/root' ? s.agent.name.replace(/^\/root\//, '') : null;
  return [s.agent.nickname, name].filter(Boolean).join(' · ') || tr('agent.subagent');
}

export function rowView(s: ExchangeSummary, progress: RowProgress | null, now: number): RowView {
  const u = s.usage;
  const streaming = s.status === 'streaming';
  const estimated = streaming && (u?.outputTokens ?? null) === null && progress !== null;
  const reasons = s.cache?.reasons ?? [];
  const m = modelView(s);
  const status = tr(`status.${s.status}`);
  return {
    time: fmtClock(s.startedAt),
    status: s.httpStatus && s.httpStatus >= 400 ? `${status} ${s.httpStatus}` : status,
    statusTone: TONE[s.status],
    statusTitle: s.error
      ? `${s.error.code}: ${companionErrorText('exchange', s.error.code, s.error.message)}`
      : s.captureComplete
        ? status
        : tr('row.captureIncomplete', { status }),
    kind: kindOf(s) === 'other' && s.kind === 'other' ? `${s.method} ${s.path}` : tr(`kind.${kindOf(s)}`),
    transport: s.transport === 'websocket' ? 'ws' : null,
    agent: agentLabel(s),
    agentTitle: [s.agent.role === 'main' ? tr('agent.mainAgent') : tr('agent.subagent'), s.agent.name, s.agent.nickname, s.threadId]
      .filter(Boolean)
      .join(' · '),
    model: m.text,
    modelTitle: m.title,
    input: fmtInt(u?.inputTokens),
    cached: fmtInt(u?.cachedTokens),
    output: estimated ? `~${fmtInt(progress?.estimatedOutputTokens ?? null)}` : fmtInt(u?.outputTokens),
    outputEstimated: estimated,
    reasoning: fmtInt(u?.reasoningTokens),
    cache: !s.cache ? UNKNOWN : s.cache.verdict === 'not_applicable' ? tr('row.notApplicable') : fmtRatio(s.cache.hitRate, 0, UNKNOWN),
    cacheMiss: s.cache?.miss ?? false,
    cacheTitle: !s.cache
      ? tr('row.noCache')
      : [
          `${verdictLabel(s.cache.verdict).text}: ${s.cache.why === null ? tr('row.hitRateIs') : companionText(s.cache.whyCode, s.cache.why).text}`,
          reasons.length ? tr('row.reasons', { reasons: reasons.join(', ') }) : '',
        ]
          .filter(Boolean)
          .join(' · '),
    cost: streaming ? '…' : fmtUsd(s.costUsd),
    costUnknown: !streaming && (s.costUsd === null || s.costUsd === undefined),
    duration: fmtDuration((s.endedAt ?? (streaming ? now : null)) === null ? null : (s.endedAt ?? now) - s.startedAt),
    preview: s.preview ?? (streaming && progress?.preview ? livePreviewText(progress.preview) : s.error ? s.error.message : ''),
  };
}
