/** @module Token usage as the upstream reported it; unknown fields stay null, never 0. */
import { z } from 'zod';

const tokens = z.number().int().nonnegative().nullable();

/**
 * Usage of one response, exactly as reported. `cachedTokens` and `cacheWriteTokens` are parts
 * of `inputTokens`; `reasoningTokens` is part of `outputTokens`. Never add a part to its whole.
 */
export const UsageSchema = z.object({
  inputTokens: tokens,
  cachedTokens: tokens,
  cacheWriteTokens: tokens,
  outputTokens: tokens,
  reasoningTokens: tokens,
  totalTokens: tokens,
});
export type Usage = z.infer<typeof UsageSchema>;

/** Sums over many exchanges. Every field is a plain sum of the reported field of the same name. */
export const UsageTotalsSchema = z.object({
  codexTokensUsed: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative(),
  cacheWriteTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  exchanges: z.number().int().nonnegative(),
  /** Exchanges that ended with usage reported; the others contribute nothing to the sums. */
  exchangesWithUsage: z.number().int().nonnegative(),
});
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;
