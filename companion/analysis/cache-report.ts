/**
 * @module A session's cache report from its summaries: hit rate over time, the misses with their
 * reasons, and the share of full-price input that came from misses (the figure behind reports
 * like openai/codex#35925, where cache-missing requests carried 94 % of full-price input).
 */
import type { CacheReasonCode, SessionCacheReport } from '../protocol/analysis';
import { CACHE_REASON_CODES } from '../protocol/cache-reason-codes';
import type { ExchangeSummary } from '../protocol/exchange';
import { uncachedInput } from './token-math';

const CODES: ReadonlySet<string> = new Set(CACHE_REASON_CODES);
const isCode = (c: string): c is CacheReasonCode => CODES.has(c);

/** The report over one session's summaries (their `cache` briefs come from the analysis). */
export function sessionCacheReport(summaries: readonly ExchangeSummary[]): SessionCacheReport {
  const model = summaries.filter((s) => s.kind === 'model').sort((a, b) => a.startedAt - b.startedAt);
  const sessions = new Set(model.map((s) => s.sessionId));
  let cached = 0;
  let input = 0;
  let reported = false;
  let fullPrice = 0;
  let missed = 0;
  let missCost = 0;
  const points: SessionCacheReport['points'] = [];
  const misses: SessionCacheReport['misses'] = [];
  for (const s of model) {
    const u = s.usage;
    if (u && u.inputTokens !== null && u.cachedTokens !== null) {
      reported = true;
      cached += u.cachedTokens;
      input += u.inputTokens;
    }
    fullPrice += uncachedInput(u) ?? 0;
    const c = s.cache;
    if (!u || u.inputTokens === null) continue;
    points.push({ id: s.id, startedAt: s.startedAt, threadId: s.threadId, hitRate: c?.hitRate ?? null, miss: c?.miss ?? false });
    if (!c?.miss) continue;
    missed += c.missedTokens ?? 0;
    missCost += c.missCostUsd ?? 0;
    misses.push({
      id: s.id,
      startedAt: s.startedAt,
      threadId: s.threadId,
      reasons: c.reasons.filter(isCode),
      missedTokens: c.missedTokens,
      missCostUsd: c.missCostUsd,
    });
  }
  return {
    sessionId: sessions.size === 1 ? [...sessions][0] : null,
    points,
    misses,
    hitRate: reported && input > 0 ? cached / input : null,
    fullPriceInputTokens: fullPrice,
    missedTokens: missed,
    missShare: fullPrice > 0 ? missed / fullPrice : null,
    missCostUsd: missCost,
  };
}
