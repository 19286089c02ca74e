/**
 * @module Token arithmetic on reported usage (codex-protocol.md §3.3, §8.1). Cached and cache-write
 * tokens are parts of input, reasoning is part of output: a part is never added to its whole.
 * Unknown stays null, never 0.
 */
import type { Usage } from '../protocol/usage';

/** max(0, input − cached): input billed at the full rate. A missing cache field counts as 0 cached, as Codex does. */
export function uncachedInput(u: Usage | null): number | null {
  if (!u || u.inputTokens === null) return null;
  return Math.max(0, u.inputTokens - (u.cachedTokens ?? 0));
}

/**
 * Codex's `TokenUsage::blended_total`: max(0, input − cached) + output. Summed over counted
 * responses it reproduces the `tokens used` that `codex exec` prints.
 */
export function blendedTokens(u: Usage | null): number | null {
  const uncached = uncachedInput(u);
  if (uncached === null || !u || u.outputTokens === null) return null;
  return uncached + u.outputTokens;
}

/** cached / input; null when either is unknown or input is 0 (unknown is never shown as 0 %). */
export function hitRate(u: Usage | null): number | null {
  if (!u || u.inputTokens === null || u.cachedTokens === null || u.inputTokens === 0) return null;
  return Math.min(1, u.cachedTokens / u.inputTokens);
}

/** OpenAI caches prompts in 128-token blocks from 1,024 tokens up: the cacheable part of a prefix. */
export function cacheableTokens(prefixTokens: number): number {
  return prefixTokens < 1024 ? 0 : Math.floor(prefixTokens / 128) * 128;
}

/** What decides whether an exchange enters Codex's own count. */
export interface CountFacts {
  kind: 'model' | 'other';
  role: string;
  status: string;
  requestKind: string | null;
  compactionImplementation: string | null;
}

/**
 * Whether an exchange enters Codex's own `tokens used` (architecture.md, "As Codex counts"): the
 * root thread's turns and local compactions that ended completed or incomplete.
 */
export function codexCounted(f: CountFacts): boolean {
  if (f.kind !== 'model' || f.role !== 'main') return false;
  if (f.status !== 'completed' && f.status !== 'incomplete') return false;
  if (f.requestKind === 'turn') return true;
  return f.requestKind === 'compaction' && f.compactionImplementation === 'responses';
}
