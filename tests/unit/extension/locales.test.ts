// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import {
  FALLBACK_LOCALE,
  MESSAGES,
  PSEUDO_LOCALE,
  UI_LOCALES,
  applyLocaleToDocument,
  createUiI18n,
  isRtl,
  missingKeys,
  pluralFormCounts,
  pluralIndex,
  pseudoMessages,
  resolveUiLocale,
} from '../../../extension/lib/i18n';
import { translator } from '../../support/i18n';

type Tree = { [k: string]: string | Tree };
const flat = (t: Tree, prefix = ''): Map<string, string> =>
  new Map(Object.entries(t).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v]] : [...flat(v, `${prefix}${k}.`)])));
/** `{base}`, `{'@'}`: what vue-i18n fills in or keeps literally (once each: plural forms repeat them). */
const placeholders = (s: string) => [...new Set(s.match(/\{[^}]*\}/g) ?? [])].sort();
/** A plural message's forms, separated by ` | ` (vue-i18n's syntax). */
const forms = (s: string) => s.split(' | ').length;

const english = flat(MESSAGES[FALLBACK_LOCALE]);

describe('the UI locales', () => {
  it('are the eighteen the UI ships', () => {
    expect(UI_LOCALES).toEqual(
      ['ar', 'da', 'de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'nb', 'pl', 'pt-BR', 'ru', 'th', 'tr', 'uk', 'zh-CN', 'zh-TW'].sort(),
    );
  });

  it.each(UI_LOCALES.filter((l) => l !== FALLBACK_LOCALE))('%s has every English key, no other, and the same placeholders', (locale) => {
    const messages = flat(MESSAGES[locale]);
    expect([...english.keys()].filter((k) => !messages.has(k))).toEqual([]);
    expect([...messages.keys()].filter((k) => !english.has(k))).toEqual([]);
    const differing = [...english].filter(
      ([k, v]) => JSON.stringify(placeholders(v)) !== JSON.stringify(placeholders(messages.get(k) ?? '')),
    );
    expect(differing.map(([k]) => k)).toEqual([]);
    // A translation that is the English text verbatim is a string nobody translated (short ones may match).
    expect([...english].filter(([k, v]) => v.length > 24 && messages.get(k) === v).map(([k]) => k)).toEqual([]);
  });

  it.each(UI_LOCALES)('%s writes each plural message with as many forms as its plural rules need', (locale) => {
    const allowed = pluralFormCounts(locale);
    const plural = [...english].filter(([, v]) => forms(v) > 1).map(([k]) => k);
    expect(plural.length).toBeGreaterThan(0);
    const wrong = plural.filter((k) => !allowed.includes(forms(flat(MESSAGES[locale]).get(k) ?? '')));
    expect(wrong).toEqual([]);
  });

  it.each(UI_LOCALES)('%s: every message compiles and renders without falling back', (locale) => {
    const errors: string[] = [];
    const i18n = createUiI18n(locale);
    const { t } = i18n.global;
    for (const [k, v] of flat(MESSAGES[locale])) {
      const params = Object.fromEntries(placeholders(v).map((p) => [p.slice(1, -1), 'X']));
      try {
        const out = forms(v) > 1 ? t(k, params, 2) : t(k, params);
        if (out === k || out.includes('{')) errors.push(`${k}: ${out}`);
      } catch (err) {
        errors.push(`${k}: ${String(err)}`);
      }
    }
    expect(errors).toEqual([]);
  });

  it('picks plural forms by each language’s rules', () => {
    const ru = translator('ru');
    expect([1, 3, 5, 21].map((n) => ru('capture.errors', { n }, n))).toEqual([
      '1 ошибка захвата',
      '3 ошибки захвата',
      '5 ошибок захвата',
      '21 ошибка захвата',
    ]);
    expect(pluralIndex('ja', 5, 1)).toBe(0);
    expect([1, 2].map((n) => pluralIndex('en', n, 2))).toEqual([0, 1]);
    expect([0, 1, 2, 3, 11, 100].map((n) => pluralIndex('ar', n, 6))).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('builds a pseudo-locale that marks every message and keeps placeholders and code', () => {
    const pseudo = flat(pseudoMessages(MESSAGES[FALLBACK_LOCALE]));
    for (const [k, v] of english) {
      const p = pseudo.get(k)!;
      expect(p.startsWith('[') && p.endsWith(']'), k).toBe(true);
      expect(placeholders(p), k).toEqual(placeholders(v));
      for (const code of v.match(/`[^`]*`/g) ?? []) expect(p, k).toContain(code);
    }
    expect(pseudo.get('connection.offline')).toBe('[ófflíñé]');
  });

  it('follows the setting, then the browser, matching regions and scripts', () => {
    expect(resolveUiLocale('auto', ['zh-CN'])).toBe('zh-CN');
    expect(resolveUiLocale('auto', ['zh'])).toBe('zh-CN');
    expect(resolveUiLocale('auto', ['zh-SG'])).toBe('zh-CN');
    expect(resolveUiLocale('auto', ['zh-HK'])).toBe('zh-TW');
    expect(resolveUiLocale('auto', ['pt'])).toBe('pt-BR');
    expect(resolveUiLocale('auto', ['nb-NO'])).toBe('nb');
    expect(resolveUiLocale('auto', ['ar-EG'])).toBe('ar');
    expect(resolveUiLocale('auto', ['xx', 'de-AT'])).toBe('de');
    expect(resolveUiLocale('ja', ['de-AT'])).toBe('ja');
    expect(resolveUiLocale('auto', ['xx'])).toBe('en');
    expect(resolveUiLocale(PSEUDO_LOCALE, ['de'])).toBe(PSEUDO_LOCALE);
  });

  it('lays Arabic out right to left, and the rest left to right', () => {
    expect(isRtl('ar')).toBe(true);
    expect(isRtl('de')).toBe(false);
    applyLocaleToDocument('ar', document);
    expect([document.documentElement.dir, document.documentElement.lang]).toEqual(['rtl', 'ar']);
    applyLocaleToDocument('ja', document);
    expect([document.documentElement.dir, document.documentElement.lang]).toEqual(['ltr', 'ja']);
  });

  it('shows English for a key the chosen locale lacks, and remembers which', () => {
    const i18n = createUiI18n('ja');
    i18n.global.mergeLocaleMessage('ja', { connection: { connected: undefined as unknown as string } });
    missingKeys.value = [];
    const { t } = i18n.global;
    expect(t('connection.offline')).toBe('オフライン');
    // A key no locale has falls through to English, then to the key itself.
    expect(t('connection.nothingHere')).toBe('connection.nothingHere');
    expect(missingKeys.value).toContain('connection.nothingHere');
  });
});
