/**
 * The UI's one string layer: vue-i18n (composition mode, messages compiled without eval, which
 * MV3 pages forbid), message files per locale in extension/locales/, English as the fallback.
 * The language follows the extension's language setting (the one the doc sheets follow too),
 * else the browser's. Arabic lays the page out right to left; captured content stays left to
 * right (theme.css, `[dir='rtl'] .ltr-content`).
 */
import { createI18n } from 'vue-i18n';
import { ref } from 'vue';
import { matchLanguage } from './docs';

/** One locale's messages: nested objects of strings, as in extension/locales/en.json. */
type Messages = { [key: string]: string | Messages };

const FILES = import.meta.glob<Messages>('../locales/*.json', { import: 'default', eager: true });

/** Every UI locale, by its file name: `en`, `zh-CN`, … */
export const MESSAGES: Record<string, Messages> = Object.fromEntries(
  Object.entries(FILES).map(([file, m]) => [/([^/]+)\.json$/.exec(file)![1], m]),
);

export const FALLBACK_LOCALE = 'en';
export const UI_LOCALES: readonly string[] = Object.keys(MESSAGES).sort();
const RTL = new Set(['ar']);

/** Test-only: every English message bracketed and accented, so untranslated text stands out. */
export const PSEUDO_LOCALE = 'en-XA';

const ACCENTS: Record<string, string> = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', A: 'Á', E: 'É', I: 'Í', O: 'Ó', U: 'Ú', c: 'ç', n: 'ñ' };

/** Accents letters outside placeholders (`{name}`), literals (`{'@'}`) and code spans (`` `npx …` ``). */
function pseudo(text: string): string {
  return `[${text.replace(/(\{[^}]*\}|`[^`]*`)|([A-Za-z])/g, (m, keep: string | undefined, ch: string | undefined) =>
    keep ? keep : (ACCENTS[ch!] ?? ch!),
  )}]`;
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
    // Called when the chosen locale lacks a key and English stands in.
    missing: (loc: string, key: string) => {
      if (loc !== FALLBACK_LOCALE && !missingKeys.value.includes(key)) missingKeys.value = [...missingKeys.value, key];
      return undefined;
    },
  });
}

export type UiI18n = ReturnType<typeof createUiI18n>;

/** Sets the page's language and direction (`lang`, `dir`) for a locale. */
export function applyLocaleToDocument(locale: string, doc: Document = document): void {
  doc.documentElement.lang = locale === PSEUDO_LOCALE ? 'en' : locale;
  doc.documentElement.dir = isRtl(locale) ? 'rtl' : 'ltr';
}
