/**
 * What each language of the concept docs still lacks, measured against the English docs and the
 * tools found in the captured requests, and where a translation departs from the structure of its
 * English doc (see `translationProblems`). The concept-doc tests assert on it; translators run it:
 * `npx tsx tests/support/doc-coverage.ts [lang…]`. Test-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseDoc, parseFrontMatter, type ConceptDoc } from '../../extension/lib/concept-doc';
import { MCP_TOOLS_DOC } from '../../extension/lib/tool-keys';
import { englishHashes } from './doc-source-hash';
import { docStructure } from './doc-structure';
import { collectToolInventory, type InventoryTool } from './tool-inventory';

export const CONCEPTS_DIR = path.resolve('concepts');

export interface LanguageConfig {
  fallback: string;
  /** Every language the docs are written in; each has every English doc. */
  languages: string[];
  names: Record<string, string>;
}

export function languageConfig(dir: string = CONCEPTS_DIR): LanguageConfig {
  return JSON.parse(fs.readFileSync(path.join(dir, 'languages.json'), 'utf8')) as LanguageConfig;
}

/** Files in a language folder that are not docs. */
export const GLOSSARY_FILE = 'GLOSSARY.md';

export interface DocFile {
  doc: ConceptDoc;
  /** Whether the front matter has a non-empty `title` of its own. */
  hasTitle: boolean;
  /** The front matter as written, `source` included. */
  meta: Record<string, string | string[]>;
  /** The file's text. */
  text: string;
}

/** The docs on disk for one language, by name; empty when its folder does not exist. */
export function readDocs(lang: string, concepts: string = CONCEPTS_DIR): Map<string, DocFile> {
  const dir = path.join(concepts, lang);
  const out = new Map<string, DocFile>();
  if (!fs.existsSync(dir)) return out;
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== GLOSSARY_FILE)
    .sort()) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const name = file.slice(0, -3);
    const { meta } = parseFrontMatter(text);
    const title = meta.title;
    out.set(name, { doc: parseDoc(name, lang, text), hasTitle: typeof title === 'string' && title.trim() !== '', meta, text });
  }
  return out;
}

export interface LanguageCoverage {
  lang: string;
  folderExists: boolean;
  /** Docs this language should have and does not. */
  missingDocs: string[];
  /** Docs without a title or without a body. */
  untitledOrEmpty: string[];
  /** Tool docs and the parameter names they do not name, both in `params` and in the text. */
  missingParams: Record<string, string[]>;
  /** Tool docs whose `tool`/`namespace` front matter does not match the file name. */
  wrongToolKeys: string[];
  /** Links to docs that do not exist. */
  brokenLinks: Record<string, string[]>;
}

const named = (text: string, identifier: string) =>
  new RegExp(`(^|[^A-Za-z0-9_])${identifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_])`).test(text);

function toolDocName(t: InventoryTool): string {
  return t.mcp ? MCP_TOOLS_DOC : `tool.${t.key}`;
}

function linksOf(body: string): string[] {
  return [...body.matchAll(/\]\(([A-Za-z0-9][\w.-]*)\.md(?:#[\w-]*)?\)/g)].map((m) => m[1]);
}

function coverageOf(lang: string, english: Map<string, DocFile>, inventory: InventoryTool[], concepts: string): LanguageCoverage {
  const docs = readDocs(lang, concepts);
  const expected = new Set([...english.keys(), ...inventory.map(toolDocName)]);
  const byKey = new Map(inventory.filter((t) => !t.mcp).map((t) => [t.key, t]));
  const known = new Set([...english.keys(), ...docs.keys()]);
  const cov: LanguageCoverage = {
    lang,
    folderExists: fs.existsSync(path.join(concepts, lang)),
    missingDocs: [...expected].filter((n) => !docs.has(n)).sort(),
    untitledOrEmpty: [],
    missingParams: {},
    wrongToolKeys: [],
    brokenLinks: {},
  };
  for (const [name, { doc, hasTitle }] of docs) {
    if (!hasTitle || doc.body.trim() === '') cov.untitledOrEmpty.push(name);
    const broken = linksOf(doc.body).filter((l) => !known.has(l));
    if (broken.length) cov.brokenLinks[name] = broken;
    if (doc.kind !== 'tool') continue;
    const key = name.replace(/^tool\./, '');
    const ns = key.includes('.') ? key.slice(0, key.lastIndexOf('.')) : null;
    if (doc.tool !== key || doc.namespace !== ns) cov.wrongToolKeys.push(name);
    const tool = byKey.get(key);
    if (!tool) continue;
    const missing = [...tool.params, ...tool.options].filter((p) => !doc.params.includes(p) || !named(doc.body, p));
    if (missing.length) cov.missingParams[name] = missing;
  }
  return cov;
}

/** Every configured language, English first; `concepts` is the docs folder. */
export function docCoverage(inventory: InventoryTool[] = collectToolInventory(), concepts: string = CONCEPTS_DIR): LanguageCoverage[] {
  const config = languageConfig(concepts);
  const english = readDocs(config.fallback, concepts);
  const langs = [config.fallback, ...config.languages.filter((l) => l !== config.fallback)];
  return langs.map((lang) => coverageOf(lang, english, inventory, concepts));
}

// ---------------------------------------------------------------------------------------------
// Glossary

export interface GlossaryEntry {
  term: string;
  /** Other forms that count as a use of the term. */
  forms: string[];
}

export interface Glossary {
  title: string;
  /** By key (the English key column), in file order. */
  entries: Map<string, GlossaryEntry>;
}

/** Reads the `| key | term | forms |` table of a GLOSSARY.md; the first `#` line is its title. */
export function parseGlossary(text: string): Glossary {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const title = (lines.find((l) => /^#\s/.test(l)) ?? '').replace(/^#\s+/, '').trim();
  const entries = new Map<string, GlossaryEntry>();
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim());
  const header = lines.findIndex((l) => l.trim().startsWith('|') && cells(l)[0]?.toLowerCase() === 'key');
  if (header === -1) return { title, entries };
  for (const line of lines.slice(header + 2)) {
    if (!line.trim().startsWith('|')) break;
    const [key = '', term = '', forms = ''] = cells(line);
    if (!key) continue;
    entries.set(key, {
      term,
      forms: forms
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
    });
  }
  return { title, entries };
}

/** A language's glossary, or null when its folder has no GLOSSARY.md. */
export function readGlossary(lang: string, concepts: string = CONCEPTS_DIR): Glossary | null {
  const file = path.join(concepts, lang, GLOSSARY_FILE);
  return fs.existsSync(file) ? parseGlossary(fs.readFileSync(file, 'utf8')) : null;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** English: the term or a form as a whole word, a plural `s` allowed, any case. */
export function usesEnglishTerm(prose: string, entry: GlossaryEntry): boolean {
  return [entry.term, ...entry.forms]
    .filter(Boolean)
    .some((w) =>
      new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(w).replace(/ +/g, '\\s+')}s?(?![\\p{L}\\p{N}_])`, 'iu').test(prose.normalize('NFC')),
    );
}

/** A translation: the term or a form anywhere, any case (inflected and compound words count). */
export function usesTranslatedTerm(prose: string, entry: GlossaryEntry): boolean {
  const text = prose.normalize('NFC').toLowerCase().replace(/\s+/g, ' ');
  return [entry.term, ...entry.forms].filter(Boolean).some((w) => text.includes(w.normalize('NFC').toLowerCase().replace(/\s+/g, ' ')));
}

// ---------------------------------------------------------------------------------------------
// Translations against their English doc

/**
 * Products a doc must not mention (another AI tool, proxy or viewer): whole words, case as
 * written, outside code.
 */
export const OTHER_PRODUCTS = [
  'Claude',
  'Anthropic',
  'Cursor',
  'Copilot',
  'Gemini',
  'Aider',
  'Windsurf',
  'Cline',
  'Roo Code',
  'Zed',
  'Devin',
  'Codeium',
  'Tabnine',
  'OpenCode',
  'Kiro',
  'Amazon Q',
  'mitmproxy',
  'mitmweb',
  'Charles Proxy',
  'Fiddler',
  'Wireshark',
  'Burp',
  'Proxyman',
  'HTTP Toolkit',
  'Postman',
  'Insomnia',
  'LangSmith',
  'Langfuse',
  'Helicone',
  'OpenRouter',
  'LiteLLM',
  'Ollama',
];

/** One rule a translation follows; each maps doc names (or glossary keys) to what breaks it. */
export const TRANSLATION_RULES = [
  'docs',
  'source',
  'frontMatter',
  'headings',
  'codeBlocks',
  'codeSpans',
  'links',
  'tables',
  'glossary',
  'glossaryTerms',
  'otherProducts',
] as const;
export type TranslationRule = (typeof TRANSLATION_RULES)[number];
export type TranslationProblems = Record<TranslationRule, Record<string, string[]>>;

const IDENTIFIER_KEYS = ['kind', 'tool', 'namespace', 'params'] as const;

const show = (v: string | string[] | undefined) => (v === undefined ? '(none)' : Array.isArray(v) ? `[${v.join(', ')}]` : v);
const levels = (hs: number[]) => hs.map((h) => '#'.repeat(h)).join(' ') || '(none)';
const spans = (row: string[]) => row.map((r) => r || '(no code)').join(', ') || '(no rows)';

/** Names of the products a text mentions. */
export function otherProductsIn(prose: string): string[] {
  return OTHER_PRODUCTS.filter((p) => new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(p)}(?![\\p{L}\\p{N}_])`, 'u').test(prose));
}

function add(problems: TranslationProblems, rule: TranslationRule, doc: string, messages: string[]): void {
  if (messages.length) problems[rule][doc] = [...(problems[rule][doc] ?? []), ...messages];
}

function difference(a: readonly string[], b: readonly string[]): string[] {
  const set = new Set(b);
  return a.filter((x) => !set.has(x));
}

/**
 * Where the translations of one language depart from English: each rule maps doc names to
 * messages (glossary problems are keyed by glossary key). A rule without problems is `{}`.
 * English itself is only checked for mentions of other products.
 */
export function translationProblems(lang: string, concepts: string = CONCEPTS_DIR): TranslationProblems {
  const config = languageConfig(concepts);
  const english = readDocs(config.fallback, concepts);
  const docs = lang === config.fallback ? english : readDocs(lang, concepts);
  const problems = Object.fromEntries(TRANSLATION_RULES.map((r) => [r, {}])) as TranslationProblems;
  for (const [name, { doc }] of docs)
    add(problems, 'otherProducts', name, otherProductsIn(`${doc.title}\n${docStructure(doc.body).prose}`));
  if (lang === config.fallback) return problems;
  const hashes = englishHashes(concepts, config.fallback);

  const englishGlossary = readGlossary(config.fallback, concepts);
  const glossary = readGlossary(lang, concepts);
  if (englishGlossary) {
    if (!glossary) add(problems, 'glossary', GLOSSARY_FILE, [`concepts/${lang}/${GLOSSARY_FILE} does not exist`]);
    else {
      for (const key of englishGlossary.entries.keys()) {
        const entry = glossary.entries.get(key);
        if (!entry) add(problems, 'glossary', key, ['missing']);
        else if (!entry.term) add(problems, 'glossary', key, ['no term']);
      }
      for (const key of glossary.entries.keys())
        if (!englishGlossary.entries.has(key)) add(problems, 'glossary', key, ['not in the English glossary']);
    }
  }

  for (const name of english.keys()) if (!docs.has(name)) add(problems, 'docs', name, ['missing']);
  for (const name of docs.keys()) if (!english.has(name)) add(problems, 'docs', name, ['English has no such doc']);

  for (const [name, own] of docs) {
    const en = english.get(name);
    if (en) compareDoc(problems, name, own, en, hashes.get(name) ?? '', englishGlossary, glossary);
  }
  return problems;
}

function compareDoc(
  problems: TranslationProblems,
  name: string,
  own: DocFile,
  en: DocFile,
  hash: string,
  englishGlossary: Glossary | null,
  glossary: Glossary | null,
): void {
  const source = own.meta.source;
  if (source === undefined || source === '') add(problems, 'source', name, [`no source; record source: ${hash}`]);
  else if (source !== hash)
    add(problems, 'source', name, [`source ${show(source)}, English is now ${hash}: English changed, translation not updated`]);

  const fm: string[] = [];
  for (const key of IDENTIFIER_KEYS)
    if (show(own.meta[key]) !== show(en.meta[key])) fm.push(`${key} ${show(own.meta[key])}, English ${show(en.meta[key])}`);
  if (en.doc.kind === 'tool' && own.doc.title !== en.doc.title)
    fm.push(`title ${own.doc.title}, English ${en.doc.title} (a tool doc is titled by the tool name)`);
  add(problems, 'frontMatter', name, fm);

  const a = docStructure(own.doc.body);
  const b = docStructure(en.doc.body);

  if (levels(a.headings) !== levels(b.headings)) add(problems, 'headings', name, [`${levels(a.headings)}, English ${levels(b.headings)}`]);

  if (a.codeBlocks.length !== b.codeBlocks.length)
    add(problems, 'codeBlocks', name, [`${a.codeBlocks.length} code blocks, English ${b.codeBlocks.length}`]);
  else
    add(
      problems,
      'codeBlocks',
      name,
      b.codeBlocks.flatMap((block, i) => (a.codeBlocks[i] === block ? [] : [`code block ${i + 1} differs from English`])),
    );

  add(problems, 'codeSpans', name, [
    ...difference(b.codeSpans, a.codeSpans).map((s) => `missing \`${s}\``),
    ...difference(a.codeSpans, b.codeSpans).map((s) => `extra \`${s}\``),
  ]);

  add(problems, 'links', name, [
    ...difference(b.links, a.links).map((l) => `missing link to ${l}`),
    ...difference(a.links, b.links).map((l) => `extra link to ${l}`),
  ]);

  if (a.tables.length !== b.tables.length) add(problems, 'tables', name, [`${a.tables.length} tables, English ${b.tables.length}`]);
  else
    add(
      problems,
      'tables',
      name,
      b.tables.flatMap((rows, i) =>
        spans(a.tables[i]) === spans(rows) ? [] : [`table ${i + 1} first column: ${spans(a.tables[i])}; English: ${spans(rows)}`],
      ),
    );

  if (englishGlossary && glossary) {
    const enProse = `${en.doc.title}\n${b.prose}`;
    const ownProse = `${own.doc.title}\n${a.prose}`;
    const missing: string[] = [];
    for (const [key, entry] of englishGlossary.entries) {
      const term = glossary.entries.get(key);
      if (!term?.term || !usesEnglishTerm(enProse, entry) || usesTranslatedTerm(ownProse, term)) continue;
      missing.push(`${key}: ${term.term}${term.forms.length ? ' (or one of its forms)' : ''}`);
    }
    add(problems, 'glossaryTerms', name, missing);
  }
}

function report(c: LanguageCoverage): string {
  if (!c.folderExists) return `${c.lang}: not started, concepts/${c.lang}/ does not exist; it needs ${c.missingDocs.length} docs.`;
  const lines = [`${c.lang}:`];
  if (c.missingDocs.length) lines.push(`  missing docs (${c.missingDocs.length}): ${c.missingDocs.join(', ')}`);
  for (const [doc, params] of Object.entries(c.missingParams)) lines.push(`  ${doc} does not name: ${params.join(', ')}`);
  if (c.untitledOrEmpty.length) lines.push(`  without title or body: ${c.untitledOrEmpty.join(', ')}`);
  if (c.wrongToolKeys.length) lines.push(`  tool/namespace front matter differs from the file name: ${c.wrongToolKeys.join(', ')}`);
  for (const [doc, links] of Object.entries(c.brokenLinks)) lines.push(`  ${doc} links to missing docs: ${links.join(', ')}`);
  const { docs: _listedAbove, ...problems } = translationProblems(c.lang);
  for (const [rule, byDoc] of Object.entries(problems))
    for (const [doc, messages] of Object.entries(byDoc)) lines.push(`  ${rule}: ${doc}: ${messages.join('; ')}`);
  if (lines.length === 1) lines.push('  complete');
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const only = process.argv.slice(2);
  for (const c of docCoverage()) if (only.length === 0 || only.includes(c.lang)) process.stdout.write(report(c) + '\n');
}
