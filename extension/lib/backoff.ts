/** Reconnect delays: exponential, capped, so an absent companion costs one attempt every few seconds at most. */

export interface BackoffOptions {
  /** First retry delay. */
  baseMs: number;
  /** Ceiling for any delay. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 10_000 };

/** Delay before retry number `attempt` (1 for the first retry): base, 2×base, 4×base, … up to max. */
export function backoffDelay(attempt: number, { baseMs, maxMs }: BackoffOptions = DEFAULT_BACKOFF): number {
  const n = Math.max(1, Math.floor(attempt));
  // 2 ** 30 already exceeds any sane cap; stopping there keeps the arithmetic finite.
  return Math.min(maxMs, baseMs * 2 ** Math.min(n - 1, 30));
}
