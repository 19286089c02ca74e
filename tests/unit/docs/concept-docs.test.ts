import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONCEPTS_DIR, docCoverage, languageConfig, readDocs } from '../../support/doc-coverage';
import { collectToolInventory, FIXTURES_DIR } from '../../support/tool-inventory';

const config = languageConfig();
const inventory = collectToolInventory();
const coverage = docCoverage(inventory);
const started = coverage.filter((c) => c.folderExists);

/** Sentences of eight words or more from every description Codex sent in our full-text captures. */
function codexSentences(): string[] {
  const out = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'description' && typeof v === 'string') {
        for (const s of v.split(/(?<=[.!?])\s+|\n+/)) {
          const sentence = s.replace(/\s+/g, ' ').trim();
          if (sentence.split(' ').length >= 8) out.add(sentence);
        }
      } else walk(v);
    }
  };
  const dir = path.join(FIXTURES_DIR, 'requests');
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) walk(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
  return [...out];
}

describe('the concept docs', () => {
  it('declares every language folder in concepts/languages.json', () => {
    const folders = fs.readdirSync(CONCEPTS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.map((f) => f.name).filter((f) => !config.languages.includes(f))).toEqual([]);
    expect(config.languages).toContain(config.fallback);
    expect(config.languages.filter((l) => !config.names[l])).toEqual([]);
  });

  it('has a complete English set, which every other language is measured against', () => {
    expect(started.map((c) => c.lang)).toContain('en');
  });

  it('has a doc for every tool found in the captured requests, and one doc for MCP server tools', () => {
    const english = readDocs(config.fallback);
    const keys = inventory.filter((t) => !t.mcp).map((t) => `tool.${t.key}`);
    expect(keys.filter((k) => !english.has(k))).toEqual([]);
    expect(inventory.some((t) => t.mcp)).toBe(true);
    expect(english.has('mcp-tools')).toBe(true);
  });

  describe.each(started.map((c) => [c.lang, c] as const))('in %s', (_lang, c) => {
    it('has every doc the language promises', () => {
      expect(c.missingDocs).toEqual([]);
    });

    it('gives every doc a title and a body', () => {
      expect(c.untitledOrEmpty).toEqual([]);
    });

    it('names every parameter of each tool, in the front matter and in the text', () => {
      expect(c.missingParams).toEqual({});
    });

    it('keys each tool doc by the tool and namespace its file name says', () => {
      expect(c.wrongToolKeys).toEqual([]);
    });

    it('links only to docs that exist', () => {
      expect(c.brokenLinks).toEqual({});
    });
  });

  it('does not copy sentences from the descriptions Codex sends', () => {
    const sentences = codexSentences();
    expect(sentences.length).toBeGreaterThan(100);
    const copied = started.flatMap((c) =>
      [...readDocs(c.lang).values()].flatMap(({ doc }) => {
        const body = doc.body.replace(/\s+/g, ' ');
        return sentences.filter((s) => body.includes(s)).map((s) => `${c.lang}/${doc.name}: ${s}`);
      }),
    );
    expect(copied).toEqual([]);
  });
});
