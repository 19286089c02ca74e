/**
 * Language tags: which of a list of languages a browser tag means, and the browser's own list.
 * Small on purpose: the background imports it without the bundled docs.
 */
import { browser } from 'wxt/browser';

/** Chinese tags that mean Traditional characters: the Hant script, or a region that writes them. */
function traditionalChinese(subtags: string[]): boolean {
  if (subtags.includes('hant')) return true;
  if (subtags.includes('hans')) return false;
  return subtags.some((s) => s === 'tw' || s === 'hk' || s === 'mo');
}

/**
 * `pt` finds `pt-BR`, `zh-CN` finds `zh`, `en-US` finds `en`: an exact tag first, then the same
 * base language. Chinese goes by script: `zh-TW`, `zh-HK`, `zh-MO` and `zh-Hant` find `zh-TW`
 * (Traditional), `zh-CN`, `zh-SG`, `zh-Hans` and plain `zh` find `zh` (Simplified); either
 * takes the other when only one exists.
 */
export function matchLanguage(tag: string, available: readonly string[]): string | null {
  const want = tag.trim().replace(/_/g, '-').toLowerCase();
  if (!want) return null;
  const find = (t: string) => available.find((a) => a.toLowerCase() === t);
  const exact = find(want);
  if (exact) return exact;
  const subtags = want.split('-');
  const base = subtags[0];
  if (base === 'zh') {
    const [first, second] = traditionalChinese(subtags.slice(1)) ? ['zh-tw', 'zh'] : ['zh', 'zh-tw'];
    const chinese = find(first) ?? find(second);
    if (chinese) return chinese;
  }
  return find(base) ?? available.find((a) => a.toLowerCase().split('-')[0] === base) ?? null;
}

/** The browser UI language first (what the user chose for the browser), then navigator's list. */
export function browserLanguages(): string[] {
  const out: string[] = [];
  try {
    const ui = browser.i18n?.getUILanguage?.();
    if (ui) out.push(ui);
  } catch {
    // Outside an extension page (tests, previews) there is no i18n API; navigator still answers.
  }
  const nav = globalThis.navigator;
  if (nav) out.push(...(nav.languages ?? []), ...(nav.language ? [nav.language] : []));
  return out;
}
