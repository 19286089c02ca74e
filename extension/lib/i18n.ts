/**
 * The UI's one string layer: vue-i18n (composition mode, messages compiled without eval, which
 * MV3 pages forbid), message files per locale in extension/locales/, English as the fallback.
 * The language follows the extension's language setting (the one the doc sheets follow too),
 * else the browser's. Arabic lays the page out right to left; captured content stays left to
 * right (theme.css, `[dir='rtl'] .ltr-content`).
 */
import { createI18n } from 'vue-i18n';
import { ref } from 'vue';
import { matchLanguage } from './languages';

/** One locale's messages: nested objects of strings, as in extension/locales/en.json. */
type Messages = { [key: string]: string | Messages };

const FILES = import.meta.glob<Messages>('../locales/*.json', { import: 'default', eager: true });

/** Every UI locale, by its file name: `en`, `zh-CN`, … */
export const MESSAGES: Record<string, Messages> = Object.fromEntries(
  Object.entries(FILES).map(([file, m]) => [/([^/]+)\.json$/.exec(file)![1], m]),
);

export const FALLBACK_LOCALE = 'en';

/** The product's name: the same in every language. */
// eslint-disable-next-line local/no-prose-literals -- a name, not a sentence: never translated
export const PRODUCT_NAME = 'Codex DevTools';
export const UI_LOCALES: readonly string[] = Object.keys(MESSAGES).sort();
const RTL = new Set(['ar']);

/** Test-only: every English message bracketed and accented, so untranslated text stands out. */
export const PSEUDO_LOCALE = 'en-XA';

const ACCENTS: Record<string, string> = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', A: 'Á', E: 'É', I: 'Í', O: 'Ó', U: 'Ú', c: 'ç', n: 'ñ' };

/**
 * Accents letters outside placeholders (`{name}`), literals (`{'@'}`) and code spans (`` `npx …` ``),
 * and brackets each plural form (forms are separated by `|`).
 */
function pseudo(text: string): string {
  const form = (f: string) =>
    `[${f.replace(/(\{[^}]*\}|`[^`]*`)|([A-Za-z])/g, (m, keep: string | undefined, ch: string | undefined) =>
      keep ? keep : (ACCENTS[ch!] ?? ch!),
    )}]`;
  return text
    .split(' | ')
    .map((f) => form(f))
    .join(' | ');
}

/** CLDR's order of plural categories: a locale's plural forms are written in this order. */
const PLURAL_ORDER: readonly Intl.LDMLPluralRule[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

/**
 * Which of a message's `|`-separated forms a count takes, by the locale's plural rules: one form
 * for every category (`ja`: 1, `en`: one|other, `ru`: one|few|many|other, `ar`: all six), or
 * every category but `other` (which integers never take in `ru`, `uk`, `pl`), or one|other.
 */
export function pluralIndex(locale: string, count: number, forms: number): number {
  if (forms <= 1) return 0;
  const rules = new Intl.PluralRules(locale === PSEUDO_LOCALE ? FALLBACK_LOCALE : locale);
  const present = rules.resolvedOptions().pluralCategories;
  const categories = PLURAL_ORDER.filter((c) => present.includes(c));
  const category = rules.select(Math.abs(count));
  if (forms === categories.length) return categories.indexOf(category);
  if (forms === categories.length - 1 && category !== 'other') return categories.indexOf(category);
  return category === 'one' ? 0 : forms - 1;
}

/** The plural form counts a locale's messages may have (see `pluralIndex`). */
export function pluralFormCounts(locale: string): number[] {
  const n = new Intl.PluralRules(locale).resolvedOptions().pluralCategories.length;
  return [...new Set([1, 2, n, n - 1])].filter((c) => c >= 1).sort();
}

export function pseudoMessages(m: Messages): Messages {
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v === 'string' ? pseudo(v) : pseudoMessages(v)]));
}

/** The setting first (`auto` defers), then the browser's languages, then English. */
export function resolveUiLocale(setting: string | null | undefined, browserLanguages: readonly string[]): string {
  if (setting === PSEUDO_LOCALE) return PSEUDO_LOCALE;
  const candidates = [setting && setting !== 'auto' ? setting : null, ...browserLanguages].filter((c): c is string => !!c);
  // The docs' matching, where `zh` is Simplified Chinese: the UI calls that locale `zh-CN`.
  const asDocs = UI_LOCALES.map((l) => (l === 'zh-CN' ? 'zh' : l));
  for (const c of candidates) {
    const found = matchLanguage(c, asDocs);
    if (found) return found === 'zh' ? 'zh-CN' : found;
  }
  return FALLBACK_LOCALE;
}

export function isRtl(locale: string): boolean {
  return RTL.has(locale.split('-')[0]);
}

/** Keys the chosen locale lacks (shown in English), for the visible "partly in English" note. */
export const missingKeys = ref<string[]>([]);

export function createUiI18n(locale: string) {
  const messages = { ...MESSAGES, [PSEUDO_LOCALE]: pseudoMessages(MESSAGES[FALLBACK_LOCALE]) };
  return createI18n({
    legacy: false,
    locale,
    fallbackLocale: FALLBACK_LOCALE,
    // The locale files all have English's shape (tests/unit/extension/locales.test.ts checks it).
    messages: messages as Record<string, typeof MESSAGES.en>,
    missingWarn: false,
    fallbackWarn: false,
    pluralRules: Object.fromEntries(
      [...UI_LOCALES, PSEUDO_LOCALE].map((l) => [l, (choice: number, forms: number) => pluralIndex(l, choice, forms)]),
    ),
    // Called when the chosen locale lacks a key and English stands in.
    missing: (loc: string, key: string) => {
      if (loc !== FALLBACK_LOCALE && !missingKeys.value.includes(key)) missingKeys.value = [...missingKeys.value, key];
      return undefined;
    },
  });
}

export type UiI18n = ReturnType<typeof createUiI18n>;

/**
 * The page's i18n instance, for code outside components (view helpers, error texts) that has no
 * `useI18n()`. English until a page activates its own (mountPage); tests keep the English one.
 * Calls read the instance's locale ref, so a computed that formats through them follows a change.
 */
let active: UiI18n | null = null;
const activeI18n = (): UiI18n => (active ??= createUiI18n(FALLBACK_LOCALE));

export function activateUiI18n(i18n: UiI18n): void {
  active = i18n;
}

/** Translates a message key in the page's language (vue-i18n's `t` of the active instance). */
export function tr(key: string, params?: Record<string, string | number>, plural?: number): string {
  const { t } = activeI18n().global;
  if (plural !== undefined) return t(key, params ?? {}, plural);
  return params ? t(key, params) : t(key);
}

/** Whether English has a message for `key` (every locale has English's keys). */
export function te(key: string): boolean {
  return activeI18n().global.te(key, FALLBACK_LOCALE);
}

/** The page's locale as an Intl tag (the pseudo-locale formats as English). */
export function activeLocale(): string {
  const l = activeI18n().global.locale.value;
  return l === PSEUDO_LOCALE ? FALLBACK_LOCALE : l;
}

/** Each UI locale's name in its own language, for the language menu. */
export const LOCALE_NAMES: Record<string, string> = {
  ar: 'العربية',
  da: 'Dansk',
  de: 'Deutsch',
  en: 'English',
  es: 'Español',
  fr: 'Français',
  it: 'Italiano',
  ja: '日本語',
  ko: '한국어',
  // eslint-disable-next-line local/no-prose-literals -- each language under its own name, in every locale
  nb: 'Norsk bokmål',
  pl: 'Polski',
  'pt-BR': 'Português (Brasil)',
  ru: 'Русский',
  th: 'ไทย',
  tr: 'Türkçe',
  uk: 'Українська',
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
};

export const localeName = (locale: string): string => LOCALE_NAMES[locale] ?? locale;

/** Sets the page's language and direction (`lang`, `dir`) for a locale. */
export function applyLocaleToDocument(locale: string, doc: Document = document): void {
  doc.documentElement.lang = locale === PSEUDO_LOCALE ? 'en' : locale;
  doc.documentElement.dir = isRtl(locale) ? 'rtl' : 'ltr';
}
