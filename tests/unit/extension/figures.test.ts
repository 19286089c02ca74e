import { describe, expect, it } from 'vitest';
import { fmtDuration, fmtInt, fmtRatio, fmtUsd, rollupCost, shortId } from '../../../extension/lib/format';
import { rowView } from '../../../extension/lib/row-view';
import { fakeRollup, fakeSummary } from '../../support/extension-factories';

describe('numbers as the extension shows them', () => {
  it('shows unknown as unknown, never as 0', () => {
    expect(fmtInt(null)).toBe('—');
    expect(fmtInt(0)).toBe('0');
    expect(fmtUsd(null)).toBe('unknown');
    expect(fmtUsd(0)).toBe('$0.00');
    expect(fmtRatio(null)).toBe('unknown');
    expect(fmtDuration(null)).toBe('—');
  });

  it('shows the companion’s cost status: unknown, a lower bound, or the sum', () => {
    expect(rollupCost({ costUsd: 0.5, costStatus: 'unknown' })).toEqual({ text: 'unknown', partial: false });
    expect(rollupCost({ costUsd: 0.5, costStatus: 'partial' })).toEqual({ text: '$0.50', partial: true });
    expect(rollupCost({ costUsd: 0.5, costStatus: 'priced' })).toEqual({ text: '$0.50', partial: false });
  });

  it('calls a roll-up’s cost unknown when nothing in it was priced, and partial when some was', () => {
    expect(rollupCost(fakeRollup({ costUsd: 0, unpricedExchanges: 3, exchangesWithUsage: 3 }))).toEqual({
      text: 'unknown',
      partial: false,
    });
    expect(rollupCost(fakeRollup({ costUsd: 0.5, unpricedExchanges: 1, exchangesWithUsage: 3 }))).toEqual({ text: '$0.50', partial: true });
  });

  it('calls a roll-up’s cost unknown when its exchanges reported no usage, and $0 only when it has none', () => {
    expect(rollupCost(fakeRollup({ costUsd: 0, exchanges: 2, exchangesWithUsage: 0, unpricedExchanges: 0 }))).toEqual({
      text: 'unknown',
      partial: false,
    });
    expect(rollupCost(fakeRollup({ costUsd: 0, exchanges: 0, exchangesWithUsage: 0, unpricedExchanges: 0 }))).toEqual({
      text: '$0.00',
      partial: false,
    });
  });

  it('shortens ids from their end, where UUIDv7 ids differ', () => {
    expect(shortId('01a2298c-4c35-7880-8c5b-69c3b53a1657')).toBe('b53a1657');
  });

  it('fills a list row with input and cached side by side, output and reasoning side by side', () => {
    const v = rowView(fakeSummary({ usage: { inputTokens: 6000, cachedTokens: 5000, outputTokens: 40, reasoningTokens: 24 } }), null, 0);
    expect([v.input, v.cached, v.output, v.reasoning]).toEqual(['6,000', '5,000', '40', '24']);
  });

  it('marks a streaming row’s output as an estimate from its progress', () => {
    const s = fakeSummary({ status: 'streaming', usage: null, endedAt: null });
    const v = rowView(s, { estimatedOutputTokens: 12, outputChars: 48 }, s.startedAt + 2500);
    expect(v).toMatchObject({ output: '~12', outputEstimated: true, input: '—', cost: '…', duration: '2.5 s' });
  });
});
