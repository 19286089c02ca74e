/**
 * @module Which responses enter the `tokens used` figure Codex prints (architecture.md, "As
 * Codex counts"): one rule for captured exchanges and for exchanges read back from rollouts.
 */
import type { ExchangeKind, ExchangeStatus } from '../protocol/exchange';
import type { RequestKind } from '../protocol/identity';

export interface CountFacts {
  kind: ExchangeKind;
  role: 'main' | 'subagent';
  status: ExchangeStatus;
  requestKind: RequestKind;
  /** `responses` (local) or `responses_compaction_v2` (remote) on compaction requests. */
  compactionImplementation: string | null;
}

/**
 * The root thread's finished turn responses and local compactions; never prewarm, remote
 * compaction, sub-agents or unfinished attempts.
 */
export function countedByCodex(f: CountFacts): boolean {
  if (f.kind !== 'model' || f.role !== 'main') return false;
  if (f.status !== 'completed' && f.status !== 'incomplete') return false;
  if (f.requestKind === 'turn') return true;
  return f.requestKind === 'compaction' && f.compactionImplementation === 'responses';
}
