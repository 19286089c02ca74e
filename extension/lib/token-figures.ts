/**
 * Token figures for display, straight from the wire fields: cached and cache-write tokens are
 * parts of input, reasoning is part of output (protocol/usage.ts). Parts are shown beside their
 * whole, never added to it; a field the upstream did not report stays null.
 */
import type { Usage, UsageTotals } from '../../companion/protocol';

export interface TokenFigures {
  input: number | null;
  /** Part of `input`. */
  cached: number | null;
  /** Part of `input`. */
  cacheWrite: number | null;
  /** max(0, input − cached): billed at the full input rate. Null unless both are known. */
  uncachedInput: number | null;
  output: number | null;
  /** Part of `output`. */
  reasoning: number | null;
  total: number | null;
}

export function tokenFigures(usage: Usage | null | undefined): TokenFigures {
  const u = usage ?? null;
  const input = u?.inputTokens ?? null;
  const cached = u?.cachedTokens ?? null;
  return {
    input,
    cached,
    cacheWrite: u?.cacheWriteTokens ?? null,
    uncachedInput: input !== null && cached !== null ? Math.max(0, input - cached) : null,
    output: u?.outputTokens ?? null,
    reasoning: u?.reasoningTokens ?? null,
    total: u?.totalTokens ?? null,
  };
}

/** Cached share of input over a roll-up; null when no input was reported (never 0 %). */
export function cachedShare(t: Pick<UsageTotals, 'cachedTokens' | 'inputTokens' | 'exchangesWithUsage'>): number | null {
  return t.exchangesWithUsage > 0 && t.inputTokens > 0 ? t.cachedTokens / t.inputTokens : null;
}
