/** @module Reads the wire `usage` object of a response into the protocol's `Usage`, unknown as null. */
import type { Usage } from '../protocol/usage';
import { isObj, type Json } from '../lib/json';

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.trunc(v) : null;
}

const obj = (v: unknown): Json | null => (isObj(v) ? v : null);

/**
 * `input_tokens_details.cached_tokens` ⊂ `input_tokens`, `output_tokens_details.reasoning_tokens`
 * ⊂ `output_tokens` (codex-protocol.md §3.3). A field the upstream did not send stays null.
 */
export function parseUsage(wire: unknown): Usage | null {
  const u = obj(wire);
  if (!u) return null;
  const inDetails = obj(u.input_tokens_details);
  const outDetails = obj(u.output_tokens_details);
  return {
    inputTokens: count(u.input_tokens),
    cachedTokens: inDetails ? count(inDetails.cached_tokens) : null,
    cacheWriteTokens: inDetails ? count(inDetails.cache_write_tokens) : null,
    outputTokens: count(u.output_tokens),
    reasoningTokens: outDetails ? count(outDetails.reasoning_tokens) : null,
    totalTokens: count(u.total_tokens),
  };
}
