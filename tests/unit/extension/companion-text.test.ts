// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { companionText, companionTexts } from '../../../extension/lib/companion-text';
import { activateUiI18n, createUiI18n, FALLBACK_LOCALE } from '../../../extension/lib/i18n';

const inLocale = (locale: string) => activateUiI18n(createUiI18n(locale));

describe('the companion’s coded sentences in the page’s language', () => {
  afterEach(() => inLocale(FALLBACK_LOCALE));

  it('translates a known code, its counts through Intl', () => {
    inLocale('de');
    expect(companionText({ code: 'cacheWhy.miss', params: { cached: 0, expected: 8192, shortfall: 8192 } }, 'english')).toEqual({
      text: '0 Tokens aus dem Cache gelesen, erwartet waren 8.192: 8.192 zu wenig',
      english: false,
    });
  });

  it('says durations, multipliers and name lists the page’s way', () => {
    inLocale('de');
    expect(companionText({ code: 'cacheEvidence.idleGap', params: { idleMs: 360_000, ttlMs: 300_000 } }, '').text).toBe(
      '6 Min. 00 s Leerlauf seit der vorigen Anfrage mit diesem Schlüssel; der Cache lebt etwa 5 Min. 00 s',
    );
    inLocale('en');
    expect(companionText({ code: 'cacheEvidence.toolsAdded', params: { names: { items: ['a', 'b'], more: 2 } } }, '').text).toBe(
      'added a, b, and +2 more',
    );
    expect(companionText({ code: 'calibration.below', params: { reported: 500, scale: 0.5, estimate: 1000 } }, '').text).toContain(
      '×0.5 the estimate (1,000)',
    );
  });

  it('takes the plural form a count needs', () => {
    inLocale('en');
    expect(companionText({ code: 'cacheEvidence.itemsGone', params: { n: 1 } }, '').text).toBe('1 earlier item gone');
    expect(companionText({ code: 'cacheEvidence.itemsGone', params: { n: 3 } }, '').text).toBe('3 earlier items gone');
  });

  it('shows the companion’s English, marked as English, for an unknown code or none', () => {
    inLocale('ja');
    expect(companionText({ code: 'cacheWhy.fromTheFuture', params: {} }, 'the English')).toEqual({ text: 'the English', english: true });
    expect(companionText(null, 'stored before codes')).toEqual({ text: 'stored before codes', english: true });
    expect(companionText({ code: 'constructor', params: {} }, 'odd')).toEqual({ text: 'odd', english: true });
  });

  it('joins a reason’s evidence, or falls back to its English when any part is unknown', () => {
    inLocale('en');
    const added = { code: 'cacheEvidence.toolsAdded', params: { names: { items: ['lookup'], more: 0 } } };
    const removed = { code: 'cacheEvidence.toolsRemoved', params: { names: { items: ['old'], more: 0 } } };
    expect(companionTexts([added, removed], 'x')).toEqual({ text: 'added lookup; removed old', english: false });
    expect(companionTexts([added, { code: 'cacheEvidence.new', params: {} }], 'the English')).toEqual({
      text: 'the English',
      english: true,
    });
    expect(companionTexts(null, 'old analysis')).toEqual({ text: 'old analysis', english: true });
  });
});
