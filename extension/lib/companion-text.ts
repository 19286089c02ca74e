/**
 * The companion's coded sentences (protocol/text-code.ts: a cache verdict's why, a miss reason's
 * evidence, a pricing note, a calibration warning, an entry label) in the page's language, with
 * their numbers through Intl (lib/format.ts). A code this extension does not know, or a record
 * analysed before codes existed, shows the companion's English, marked as English.
 */
import type { TextCode, TextParam } from '../../companion/protocol';
import { fmtDuration, fmtInt, fmtNumber } from './format';
import { activeLocale, te, tr } from './i18n';

/** A sentence to show, and whether it is the companion's English (a fallback, `lang="en"`). */
export interface ShownText {
  text: string;
  english: boolean;
}

/** A list of names in the page's language: `a, b and c`, then `+N more` when some were left out. */
function list(items: string[], more: number): string {
  const all = more > 0 ? [...items, tr('companionText.more', { n: fmtInt(more) }, more)] : items;
  return new Intl.ListFormat(activeLocale(), { type: 'conjunction' }).format(all);
}

/** A parameter as the page shows it; its name says its kind (`…Ms` a duration, `scale` a multiplier). */
function param(name: string, v: TextParam): string {
  if (typeof v === 'string') return v;
  if (typeof v !== 'number') return list(v.items, v.more);
  if (name.endsWith('Ms')) return fmtDuration(v);
  if (name === 'scale') return fmtNumber(v, v < 10 ? 2 : 0);
  return fmtInt(v);
}

const CODE = /^[A-Za-z]+\.[A-Za-z]+$/;

/** The key of the string layer for a code, or null when the extension does not know it. */
export function companionTextKey(code: string): string | null {
  return CODE.test(code) && te(`companionText.${code}`) ? `companionText.${code}` : null;
}

/** The translation of `code` with its parameters, else the companion's `english`. */
export function companionText(code: TextCode | null | undefined, english: string): ShownText {
  const key = code ? companionTextKey(code.code) : null;
  if (!code || !key) return { text: english, english: true };
  const params = Object.fromEntries(Object.entries(code.params).map(([k, v]) => [k, param(k, v)]));
  const n = code.params.n;
  return { text: typeof n === 'number' ? tr(key, params, n) : tr(key, params), english: false };
}

/** Several coded sentences (a miss reason's evidence), joined; the English when any is unknown. */
export function companionTexts(codes: TextCode[] | null | undefined, english: string): ShownText {
  if (!codes || codes.length === 0 || codes.some((c) => !companionTextKey(c.code))) return { text: english, english: true };
  return { text: codes.map((c) => companionText(c, '').text).join('; '), english: false };
}
