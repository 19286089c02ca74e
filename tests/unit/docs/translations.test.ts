/**
 * Every translation against its English doc, one test per language and rule, each listing the docs
 * that break it and how (`npx tsx tests/support/doc-coverage.ts <lang>` prints the same list).
 * The rules are the ones concepts/README.md gives translators.
 */
import { describe, expect, it } from 'vitest';
import { languageConfig, translationProblems, type TranslationRule } from '../../support/doc-coverage';

const config = languageConfig();
const translated = config.languages.filter((l) => l !== config.fallback);

const RULES: [TranslationRule, string][] = [
  ['docs', 'has every English doc and none that English lacks'],
  ['source', 'records the hash of the English doc it translates (a mismatch: English changed, translation not updated)'],
  ['frontMatter', 'keeps kind, tool, namespace and params (and a tool doc’s title) as English has them'],
  ['headings', 'has the headings of the English doc: same count, same levels, same order'],
  ['codeBlocks', 'keeps the fenced code blocks byte for byte, in order'],
  ['codeSpans', 'has exactly the inline code spans of the English doc'],
  ['links', 'links to exactly the targets the English doc links to'],
  ['tables', 'keeps the code spans of each table’s first column, row by row'],
  ['glossary', 'has a GLOSSARY.md with a term for every key of the English glossary'],
  ['glossaryTerms', 'uses the glossary term wherever the English doc uses the English term'],
  ['otherProducts', 'mentions no other product'],
];

describe.each(translated)('the %s translation', (lang) => {
  const problems = translationProblems(lang);
  it.each(RULES)('%s: %s', (rule) => {
    expect(problems[rule]).toEqual({});
  });
});

describe('the English docs', () => {
  it('mention no other product', () => {
    expect(translationProblems(config.fallback).otherProducts).toEqual({});
  });
});
