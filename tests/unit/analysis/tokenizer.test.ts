import { describe, expect, it } from 'vitest';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { countTextTokens } from '../../../companion/analysis/tokenizer';

describe('countTextTokens', () => {
  it('counts with o200k_base', () => {
    expect(countTextTokens('Hello, world!')).toBe(encode('Hello, world!').length);
  });

  it('counts text that looks like a special token as plain prompt text instead of failing', () => {
    const text = 'a file that mentions <|endoftext|> and <|im_start|>';
    expect(countTextTokens(text)).toBeGreaterThan(10);
  });

  it('gives the same count for long text whether or not it was counted before', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(40);
    const first = countTextTokens(text);
    expect(countTextTokens(text)).toBe(first);
    expect(first).toBe(encode(text).length);
  });
});
