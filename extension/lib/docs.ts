/**
 * The concept docs (`concepts/<lang>/<name>.md`), bundled into the extension at build time so
 * they work with the companion down, and the choice of language to show them in.
 */
import type { InjectionKey } from 'vue';
import languages from '../../concepts/languages.json';
import { parseDoc, type ConceptDoc } from './concept-doc';
import { matchLanguage } from './languages';
import { MCP_TOOLS_DOC, isMcpTool, toolDocName, type ToolRef } from './tool-keys';

export type { ConceptDoc } from './concept-doc';
export { browserLanguages, matchLanguage } from './languages';

export interface ResolvedDoc {
  doc: ConceptDoc;
  /** The language asked for. */
  requested: string;
  /** True when the doc is missing in `requested` and `doc` is the English text. */
  fallback: boolean;
}

export const FALLBACK_LANGUAGE = languages.fallback;

/** Languages the docs are written in; each has every English doc. */
export const SUPPORTED_LANGUAGES: readonly string[] = languages.languages;

export function languageName(lang: string): string {
  return (languages.names as Record<string, string>)[lang] ?? lang;
}

/**
 * The docs' language for a UI locale: the docs' own tag for it (`zh-CN` → `zh`), or the locale
 * itself when no doc is written in it, so the sheet shows English with a note naming the language.
 */
export function docLanguageFor(uiLocale: string): string {
  return matchLanguage(uiLocale, SUPPORTED_LANGUAGES) ?? uiLocale;
}

/** The extension's language setting, then the browser's languages, then English. */
export function resolveLanguage(setting: string | null | undefined, browserLanguages: readonly string[]): string {
  const candidates = [setting && setting !== 'auto' ? setting : null, ...browserLanguages].filter((c): c is string => !!c);
  for (const c of candidates) {
    const found = matchLanguage(c, SUPPORTED_LANGUAGES);
    if (found) return found;
  }
  return FALLBACK_LANGUAGE;
}

export interface DocLibrary {
  /** Every doc name available in English, the reference set. */
  names(): string[];
  has(name: string, lang?: string): boolean;
  /** The doc in `lang`, else the English doc marked as a fallback; null when English lacks it too. */
  get(name: string, lang: string): ResolvedDoc | null;
  /** The doc that explains a tool; MCP server tools share one doc. */
  docForTool(ref: ToolRef, mcpServers?: Iterable<string>): string | null;
}

/** Files in a language folder that are not docs: the glossary fixes terms for translators. */
const NOT_DOCS = new Set(['GLOSSARY']);

/** `files` maps paths ending in `<lang>/<name>.md` to their text. */
export function createDocLibrary(files: Record<string, string>): DocLibrary {
  const sources = new Map<string, string>();
  for (const [file, source] of Object.entries(files)) {
    const m = /([^/]+)\/([^/]+)\.md$/.exec(file);
    if (m && !NOT_DOCS.has(m[2])) sources.set(`${m[1]}/${m[2]}`, source);
  }
  const parsed = new Map<string, ConceptDoc>();
  const load = (name: string, lang: string): ConceptDoc | null => {
    const key = `${lang}/${name}`;
    const cached = parsed.get(key);
    if (cached) return cached;
    const source = sources.get(key);
    if (source === undefined) return null;
    const doc = parseDoc(name, lang, source);
    parsed.set(key, doc);
    return doc;
  };
  const has = (name: string, lang = FALLBACK_LANGUAGE) => sources.has(`${lang}/${name}`);
  return {
    names: () =>
      [...sources.keys()]
        .filter((k) => k.startsWith(`${FALLBACK_LANGUAGE}/`))
        .map((k) => k.slice(FALLBACK_LANGUAGE.length + 1))
        .sort(),
    has,
    get(name, lang) {
      const own = load(name, lang);
      if (own) return { doc: own, requested: lang, fallback: false };
      const english = load(name, FALLBACK_LANGUAGE);
      return english ? { doc: english, requested: lang, fallback: lang !== FALLBACK_LANGUAGE } : null;
    },
    docForTool(ref, mcpServers = []) {
      if (isMcpTool(ref, mcpServers)) return MCP_TOOLS_DOC;
      const name = toolDocName(ref);
      return has(name) ? name : null;
    },
  };
}

const BUNDLED = import.meta.glob<string>(['../../concepts/*/*.md', '!../../concepts/*/GLOSSARY.md'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** The docs compiled into this build. */
export const bundledDocs: DocLibrary = createDocLibrary(BUNDLED);

/** Lets a view (or a test) hand the doc components another library. */
export const DOC_LIBRARY: InjectionKey<DocLibrary> = Symbol('doc-library');
