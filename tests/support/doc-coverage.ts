/**
 * What each language of the concept docs still lacks, measured against the English docs and the
 * tools found in the captured requests. The concept-doc tests assert on it; translators run it:
 * `npx tsx tests/support/doc-coverage.ts [lang…]`. Test-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseDoc, parseFrontMatter, type ConceptDoc } from '../../extension/lib/concept-doc';
import { MCP_TOOLS_DOC } from '../../extension/lib/tool-keys';
import { collectToolInventory, type InventoryTool } from './tool-inventory';

export const CONCEPTS_DIR = path.resolve('concepts');

export interface LanguageConfig {
  fallback: string;
  complete: string[];
  conceptsOnly: string[];
}

export function languageConfig(dir: string = CONCEPTS_DIR): LanguageConfig {
  return JSON.parse(fs.readFileSync(path.join(dir, 'languages.json'), 'utf8')) as LanguageConfig;
}

export interface DocFile {
  doc: ConceptDoc;
  /** Whether the front matter has a non-empty `title` of its own. */
  hasTitle: boolean;
}

/** The docs on disk for one language, by name; empty when its folder does not exist. */
export function readDocs(lang: string, concepts: string = CONCEPTS_DIR): Map<string, DocFile> {
  const dir = path.join(concepts, lang);
  const out = new Map<string, DocFile>();
  if (!fs.existsSync(dir)) return out;
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()) {
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    const name = file.slice(0, -3);
    const title = parseFrontMatter(source).meta.title;
    out.set(name, { doc: parseDoc(name, lang, source), hasTitle: typeof title === 'string' && title.trim() !== '' });
  }
  return out;
}

export interface LanguageCoverage {
  lang: string;
  scope: 'complete' | 'concepts';
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

function coverageOf(
  lang: string,
  scope: LanguageCoverage['scope'],
  english: Map<string, DocFile>,
  inventory: InventoryTool[],
  concepts: string,
): LanguageCoverage {
  const docs = readDocs(lang, concepts);
  const expected = new Set([...english.values()].filter((f) => scope === 'complete' || f.doc.kind === 'concept').map((f) => f.doc.name));
  if (scope === 'complete') inventory.forEach((t) => expected.add(toolDocName(t)));
  const byKey = new Map(inventory.filter((t) => !t.mcp).map((t) => [t.key, t]));
  const known = new Set([...english.keys(), ...docs.keys()]);
  const cov: LanguageCoverage = {
    lang,
    scope,
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
    if (!tool || scope !== 'complete') continue;
    const missing = [...tool.params, ...tool.options].filter((p) => !doc.params.includes(p) || !named(doc.body, p));
    if (missing.length) cov.missingParams[name] = missing;
  }
  return cov;
}

/** Every configured language, complete ones first; `concepts` is the docs folder. */
export function docCoverage(inventory: InventoryTool[] = collectToolInventory(), concepts: string = CONCEPTS_DIR): LanguageCoverage[] {
  const config = languageConfig(concepts);
  const english = readDocs(config.fallback, concepts);
  return [
    ...config.complete.map((lang) => coverageOf(lang, 'complete', english, inventory, concepts)),
    ...config.conceptsOnly.map((lang) => coverageOf(lang, 'concepts', english, inventory, concepts)),
  ];
}

function report(c: LanguageCoverage): string {
  if (!c.folderExists)
    return `${c.lang} (${c.scope}): not started, concepts/${c.lang}/ does not exist; it needs ${c.missingDocs.length} docs.`;
  const lines = [`${c.lang} (${c.scope}):`];
  if (c.missingDocs.length) lines.push(`  missing docs (${c.missingDocs.length}): ${c.missingDocs.join(', ')}`);
  for (const [doc, params] of Object.entries(c.missingParams)) lines.push(`  ${doc} does not name: ${params.join(', ')}`);
  if (c.untitledOrEmpty.length) lines.push(`  without title or body: ${c.untitledOrEmpty.join(', ')}`);
  if (c.wrongToolKeys.length) lines.push(`  tool/namespace front matter differs from the file name: ${c.wrongToolKeys.join(', ')}`);
  for (const [doc, links] of Object.entries(c.brokenLinks)) lines.push(`  ${doc} links to missing docs: ${links.join(', ')}`);
  if (lines.length === 1) lines.push('  complete');
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const only = process.argv.slice(2);
  for (const c of docCoverage()) if (only.length === 0 || only.includes(c.lang)) process.stdout.write(report(c) + '\n');
}
