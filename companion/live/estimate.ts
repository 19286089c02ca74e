/** @module Output-token estimate for live progress (o200k), before the upstream reports real usage. */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

export function estimateTokens(text: string): number {
  return text ? countTokens(text) : 0;
}
