/**
 * The `source` hash a translation records in its front matter: the first 12 hex characters of the
 * SHA-256 of the English file's bytes. When the English doc changes, the hash changes and the
 * translation test names every translation that was not updated with it. Test-only.
 *
 * `npx tsx tests/support/doc-source-hash.ts` prints `<name> <hash>` for every English doc;
 * `npx tsx tests/support/doc-source-hash.ts <lang>` lists the translations of that language whose
 * `source` is missing or stale, with the hash to record.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseFrontMatter } from '../../extension/lib/concept-doc';

const CONCEPTS_DIR = path.resolve('concepts');
const ENGLISH = 'en';
const NOT_DOCS = new Set(['GLOSSARY.md']);

export function sourceHash(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}

/** The hash of every English doc, by doc name. */
export function englishHashes(concepts: string = CONCEPTS_DIR, english: string = ENGLISH): Map<string, string> {
  const dir = path.join(concepts, english);
  const out = new Map<string, string>();
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.md') && !NOT_DOCS.has(f))
    .sort())
    out.set(file.slice(0, -3), sourceHash(fs.readFileSync(path.join(dir, file))));
  return out;
}

/** The `source` a translation records, or null when it has none. */
export function recordedSource(text: string): string | null {
  const source = parseFrontMatter(text).meta.source;
  return typeof source === 'string' && source !== '' ? source : null;
}

/** `<name> <hash>` per English doc; with a language, only its translations that lack the current hash. */
function report(lang: string | undefined): string[] {
  const hashes = englishHashes();
  if (!lang) return [...hashes].map(([name, hash]) => `${name} ${hash}`);
  const lines: string[] = [];
  for (const [name, hash] of hashes) {
    const file = path.join(CONCEPTS_DIR, lang, `${name}.md`);
    const recorded = fs.existsSync(file) ? recordedSource(fs.readFileSync(file, 'utf8')) : undefined;
    if (recorded === hash) continue;
    const why =
      recorded === undefined ? 'no translation yet' : recorded === null ? 'no source' : `records ${recorded}: English changed since`;
    lines.push(`${name} ${hash} (${why})`);
  }
  return lines.length ? lines : [`${lang}: every translation records the current English hash`];
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.stdout.on('error', () => process.exit(0)); // a closed pipe (`| head`) is not an error
  process.stdout.write(report(process.argv[2]).join('\n') + '\n');
}
