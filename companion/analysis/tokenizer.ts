/**
 * @module Token counts with OpenAI's o200k_base encoding (the GPT-4o/GPT-5 family and the models
 * Codex 0.169 uses), via gpt-tokenizer. Special-token text in prompts is counted as plain text.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { countTokens as CountTokens } from 'gpt-tokenizer/encoding/o200k_base';

export const TOKENIZER = 'o200k_base';

/**
 * Loaded on the first count, not at import: the encoder's tables take about 70 MB of heap, and a
 * thread that never counts (the companion's main thread) must not pay for them.
 */
let encoder: typeof CountTokens | null = null;
function countTokens(text: string, opts: Parameters<typeof CountTokens>[1]): number {
  encoder ??= (createRequire(import.meta.url)('gpt-tokenizer/cjs/encoding/o200k_base') as { countTokens: typeof CountTokens }).countTokens;
  return encoder(text, opts);
}

/** Text that merely looks like `<|endoftext|>` is ordinary prompt text, not a control token. */
const PLAIN = { disallowedSpecial: new Set<string>() };

/**
 * Bounded memo of counts by content hash. Codex resends the whole history on every request, so
 * the same blocks recur in every exchange of a thread; remembering their counts keeps analysing
 * an exchange proportional to what is new in it. Bounded (oldest evicted first), holds only
 * hashes and numbers, and can never change a result.
 */
const MEMO_LIMIT = 20_000;
const MEMO_MIN_CHARS = 256;
const memo = new Map<string, number>();

/** o200k token count of `text`. */
export function countTextTokens(text: string): number {
  if (text.length < MEMO_MIN_CHARS) return countTokens(text, PLAIN);
  const key = createHash('sha1').update(text).digest('base64');
  const hit = memo.get(key);
  if (hit !== undefined) {
    memo.delete(key); // re-insert: Map order is the eviction order
    memo.set(key, hit);
    return hit;
  }
  const n = countTokens(text, PLAIN);
  memo.set(key, n);
  if (memo.size > MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  return n;
}
