import { afterEach, describe, expect, it } from 'vitest';
import {
  fmtBytes,
  fmtDateTime,
  fmtDuration,
  fmtInt,
  fmtPercent,
  fmtRate,
  fmtRatio,
  fmtRelative,
  fmtTime,
  fmtUsd,
} from '../../../extension/lib/format';
import { FALLBACK_LOCALE, activateUiI18n, createUiI18n } from '../../../extension/lib/i18n';

/** Figures as a page in `locale` shows them (the page's i18n instance decides the locale). */
function inLocale(locale: string): void {
  activateUiI18n(createUiI18n(locale));
}

// Local time, so the expectations hold in any time zone.
const AT = new Date(2026, 10, 29, 14, 3, 7, 412).getTime();

/** Strips the bidi marks Intl puts around Arabic numbers and currency, and makes its no-break spaces plain ones. */
const plain = (s: string) => s.replace(/[\u200e\u200f\u061c]/g, '').replace(/[\u00a0\u202f]/g, ' ');

describe('figures in the page’s language', () => {
  afterEach(() => inLocale(FALLBACK_LOCALE));

  it('formats counts, money, percentages, sizes and durations in English', () => {
    inLocale('en');
    expect([fmtInt(12345), fmtUsd(1.5), fmtUsd(0.0042), fmtUsd(0), fmtRatio(0.834, 1), fmtPercent(80)]).toEqual([
      '12,345',
      '$1.50',
      '$0.0042',
      '$0.00',
      '83.4%',
      '80%',
    ]);
    expect([fmtDuration(850), fmtDuration(2300), fmtDuration(245_000), fmtDuration(7_800_000), fmtDuration(3 * 86_400_000)]).toEqual([
      '850 ms',
      '2.3 s',
      '4 m 05 s',
      '2 h 10 m',
      '3 d 0 h',
    ]);
    expect([fmtBytes(512), fmtBytes(1234), fmtRate(1.25)]).toEqual(['512 B', '1.2 kB', '$1.25 / 1M']);
    expect([fmtTime(AT), fmtTime(AT, 'seconds'), fmtTime(AT, 'minutes'), fmtDateTime(AT)]).toEqual([
      '14:03:07.412',
      '14:03:07',
      '14:03',
      '11/29/2026, 14:03',
    ]);
    expect([fmtRelative(AT + 7_800_000, AT), fmtRelative(AT - 300_000, AT)]).toEqual(['in 2 h 10 m', '5 m 00 s ago']);
  });

  it('uses German separators, currency placement and words', () => {
    inLocale('de');
    expect([fmtInt(12345), fmtUsd(1.5), fmtRatio(0.834, 1), fmtDuration(2300), fmtBytes(1234)].map(plain)).toEqual([
      '12.345',
      '1,50 $',
      '83,4 %',
      '2,3 s',
      '1,2 kB',
    ]);
    expect([fmtTime(AT), fmtDateTime(AT)]).toEqual(['14:03:07,412', '29.11.2026, 14:03']);
    expect(fmtRelative(AT - 300_000, AT)).toBe('vor 5 Min. 00 s');
    expect(fmtUsd(null)).toBe('unbekannt');
  });

  it('writes Arabic figures with Arabic words and order', () => {
    inLocale('ar');
    expect(plain(fmtUsd(1.5))).toBe('1.50 US$');
    expect(plain(fmtRatio(0.834, 1))).toBe('83.4%');
    expect(plain(fmtDateTime(AT))).toBe('29/11/2026، 14:03');
    expect(fmtDuration(850)).toBe('850 مللي ثانية');
    expect(fmtRelative(AT + 7_800_000, AT)).toBe('بعد 2 س 10 د');
  });

  it('writes Simplified Chinese dates year first and its own units', () => {
    inLocale('zh-CN');
    expect([fmtInt(12345), fmtUsd(1.5), fmtDateTime(AT)]).toEqual(['12,345', 'US$1.50', '2026/11/29 14:03']);
    expect([fmtDuration(2300), fmtRelative(AT - 300_000, AT), fmtBytes(3_400_000)]).toEqual(['2.3 秒', '5 分 00 秒前', '3.4 MB']);
  });

  it('writes Japanese dates year first and its own units', () => {
    inLocale('ja');
    expect([fmtInt(12345), fmtUsd(0.0042), fmtDateTime(AT)]).toEqual(['12,345', '$0.0042', '2026/11/29 14:03']);
    expect([fmtDuration(7_800_000), fmtRelative(AT + 7_800_000, AT), fmtUsd(null)]).toEqual(['2 時間 10 分', '2 時間 10 分後', '不明']);
  });

  it('shows unknown as unknown, never as 0, in every language', () => {
    inLocale('ja');
    expect([fmtInt(null), fmtDuration(undefined), fmtBytes(Number.NaN)]).toEqual(['—', '—', '—']);
  });
});
