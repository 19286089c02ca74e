/** @module Rate-limit state read from response headers (Codex `x-codex-*` and API `x-ratelimit-*`). */
import { z } from 'zod';

export const RateLimitWindowSchema = z.object({
  usedPercent: z.number().nullable(),
  windowMinutes: z.number().nullable(),
  /** Unix seconds. */
  resetsAt: z.number().nullable(),
});
export type RateLimitWindow = z.infer<typeof RateLimitWindowSchema>;

export const CodexLimitSchema = z.object({
  /** `codex` for the x-codex-* family, otherwise the limit id of an `x-<id>-primary-*` family. */
  limitId: z.string(),
  limitName: z.string().nullable(),
  /**
   * Epoch milliseconds this value was read. The latest state merges readings, so a family or the
   * credits can be older than the state's own `observedAt`; absent means "as of `observedAt`".
   */
  observedAt: z.number().optional(),
  primary: RateLimitWindowSchema.nullable(),
  secondary: RateLimitWindowSchema.nullable(),
});
export type CodexLimit = z.infer<typeof CodexLimitSchema>;

export const CreditsSchema = z.object({
  /**
   * Epoch milliseconds this value was read. The latest state merges readings, so a family or the
   * credits can be older than the state's own `observedAt`; absent means "as of `observedAt`".
   */
  observedAt: z.number().optional(),
  hasCredits: z.boolean().nullable(),
  unlimited: z.boolean().nullable(),
  balance: z.string().nullable(),
});

/** Standard OpenAI API headers, for API-key users. */
export const ApiRateLimitSchema = z.object({
  /**
   * Epoch milliseconds this value was read. The latest state merges readings, so a family or the
   * credits can be older than the state's own `observedAt`; absent means "as of `observedAt`".
   */
  observedAt: z.number().optional(),
  limitRequests: z.number().nullable(),
  remainingRequests: z.number().nullable(),
  resetRequests: z.string().nullable(),
  limitTokens: z.number().nullable(),
  remainingTokens: z.number().nullable(),
  resetTokens: z.string().nullable(),
});

export const RateLimitsSchema = z.object({
  /** Epoch milliseconds of the newest reading merged into this state. */
  observedAt: z.number(),
  codex: z.array(CodexLimitSchema),
  credits: CreditsSchema.nullable(),
  api: ApiRateLimitSchema.nullable(),
  planType: z.string().nullable(),
  promoMessage: z.string().nullable(),
  reachedType: z.string().nullable(),
});
export type RateLimits = z.infer<typeof RateLimitsSchema>;
