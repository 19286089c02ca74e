import { describe, expect, it } from 'vitest';
import { parseUsage } from '../../../companion/capture/usage';
import { loadFixture } from '../../support/fixtures';

const NONE = {
  inputTokens: null,
  cachedTokens: null,
  cacheWriteTokens: null,
  outputTokens: null,
  reasoningTokens: null,
  totalTokens: null,
};

describe('usage of a response', () => {
  it('reads the usage of a captured Codex 0.169 response', () => {
    const events = loadFixture('d-ratelimit-headers-ok-1').response_sent_by_fake_upstream.sse_events ?? [];
    const done = events.find((e) => e.type === 'response.completed') as unknown as { response: { usage: unknown } };
    expect(parseUsage(done.response.usage)).toEqual({
      inputTokens: 5000,
      cachedTokens: 4096,
      cacheWriteTokens: null,
      outputTokens: 12,
      reasoningTokens: 0,
      totalTokens: 5012,
    });
  });

  it('reads the cache-write tokens of the input details', () => {
    expect(
      parseUsage({
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 10, cache_write_tokens: 50 },
        output_tokens: 7,
        output_tokens_details: { reasoning_tokens: 3 },
        total_tokens: 107,
      }),
    ).toEqual({ inputTokens: 100, cachedTokens: 10, cacheWriteTokens: 50, outputTokens: 7, reasoningTokens: 3, totalTokens: 107 });
  });

  it('has no usage for a value that is not an object', () => {
    for (const v of [undefined, null, 0, 'usage', [], [{ input_tokens: 1 }]]) expect(parseUsage(v), JSON.stringify(v)).toBeNull();
  });

  it('leaves every field the upstream did not send unknown', () => {
    expect(parseUsage({})).toEqual(NONE);
    expect(parseUsage({ input_tokens: 3 })).toEqual({ ...NONE, inputTokens: 3 });
    expect(parseUsage({ input_tokens_details: {}, output_tokens_details: {} })).toEqual(NONE);
  });

  it('ignores details that are not objects', () => {
    expect(parseUsage({ input_tokens_details: 'x', output_tokens_details: [3] })).toEqual(NONE);
  });

  it('counts zero, truncates fractions and refuses negative, non-finite and non-number counts', () => {
    const input = (v: unknown) => parseUsage({ input_tokens: v })?.inputTokens;
    expect(input(0)).toBe(0);
    expect(input(12.9)).toBe(12);
    expect(input(0.5)).toBe(0);
    expect(input(-1)).toBeNull();
    expect(input(-0.5)).toBeNull();
    expect(input(Infinity)).toBeNull();
    expect(input(NaN)).toBeNull();
    expect(input('12')).toBeNull();
    expect(input(null)).toBeNull();
  });

  it('applies the same rules to every count', () => {
    expect(
      parseUsage({
        input_tokens: 1.5,
        input_tokens_details: { cached_tokens: 2.5, cache_write_tokens: -1 },
        output_tokens: '4',
        output_tokens_details: { reasoning_tokens: 5.5 },
        total_tokens: Infinity,
      }),
    ).toEqual({ inputTokens: 1, cachedTokens: 2, cacheWriteTokens: null, outputTokens: null, reasoningTokens: 5, totalTokens: null });
  });
});
