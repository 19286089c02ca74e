import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  docCoverage,
  parseGlossary,
  translationProblems,
  usesEnglishTerm,
  usesTranslatedTerm,
  type LanguageCoverage,
} from '../../support/doc-coverage';
import { sourceHash } from '../../support/doc-source-hash';
import type { InventoryTool } from '../../support/tool-inventory';

const tool = (key: string, params: string[], mcp = false): InventoryTool => ({
  key,
  namespace: key.includes('.') ? key.slice(0, key.lastIndexOf('.')) : null,
  name: key.slice(key.lastIndexOf('.') + 1),
  mcp,
  params,
  options: [],
  placements: ['tools'],
  sources: ['test'],
});

const inventory = [tool('exec_command', ['cmd', 'workdir']), tool('clock.sleep', ['duration_ms']), tool('mcp__mini.echo', ['text'], true)];

const files: Record<string, string> = {
  'languages.json': JSON.stringify({ fallback: 'en', languages: ['en', 'zh', 'ru', 'ja'], names: {} }),
  'en/overview.md': '---\ntitle: Overview\nkind: concept\n---\nSee [exec_command](tool.exec_command.md).',
  'en/mcp-tools.md': '---\ntitle: MCP\nkind: concept\n---\nServer tools.',
  'en/tool.exec_command.md': '---\ntitle: exec_command\nkind: tool\ntool: exec_command\nparams: [cmd, workdir]\n---\n`cmd` and `workdir`.',
  'zh/overview.md': '---\ntitle: 概览\nkind: concept\n---\n见 [exec_command](tool.exec_command.md) 和 [旧](tool.gone.md)。',
  'zh/tool.exec_command.md': '---\ntitle: exec_command\nkind: tool\ntool: exec_command\nparams: [cmd, workdir]\n---\n只说 `cmd`。',
  'zh/tool.clock.sleep.md': '---\nkind: tool\ntool: sleep\nparams: [duration_ms]\n---\n`duration_ms`。',
  'ja/overview.md': '---\ntitle: 概要\nkind: concept\n---\n本文。',
};

describe('the per-language doc report', () => {
  let dir: string;
  let byLang: Record<string, LanguageCoverage>;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concepts-'));
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    byLang = Object.fromEntries(docCoverage(inventory, dir).map((c) => [c.lang, c]));
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('asks every language for every English doc and a doc per captured tool', () => {
    expect(byLang.en.missingDocs).toEqual(['tool.clock.sleep']);
    expect(byLang.zh.missingDocs).toEqual(['mcp-tools']);
    expect(byLang.ja.missingDocs).toEqual(['mcp-tools', 'tool.clock.sleep', 'tool.exec_command']);
  });

  it('names the parameters a translated tool doc leaves out of its text', () => {
    expect(byLang.zh.missingParams).toEqual({ 'tool.exec_command': ['workdir'] });
  });

  it('reports docs without a title, tool front matter that does not match the file name, and broken links', () => {
    expect(byLang.zh.untitledOrEmpty).toEqual(['tool.clock.sleep']);
    expect(byLang.zh.wrongToolKeys).toEqual(['tool.clock.sleep']);
    expect(byLang.zh.brokenLinks).toEqual({ overview: ['tool.gone'] });
  });

  it('reports a language that has not started as a missing folder with everything to do', () => {
    expect(byLang.ru).toMatchObject({
      folderExists: false,
      missingDocs: ['mcp-tools', 'overview', 'tool.clock.sleep', 'tool.exec_command'],
    });
  });
});

const ENGLISH_TOOL = [
  '---',
  'title: exec_command',
  'kind: tool',
  'tool: exec_command',
  'params: [cmd, workdir]',
  '---',
  'Runs `cmd` in a turn; see [Caching](prompt-caching.md). Sub-agents too.',
  '',
  '## Parameters',
  '',
  '| Parameter | Meaning |',
  '|---|---|',
  '| `cmd` | The command, for example `ls | wc`. |',
  '| `workdir` | Where. |',
  '',
  '### Example',
  '',
  '```json',
  '{"cmd": "ls"}',
  '```',
  '',
].join('\n');

const GLOSSARY_EN =
  '# Glossary\n\nTerms.\n\n| key | term | forms |\n|---|---|---|\n| turn | turn | |\n| sub-agent | sub-agent | subagent |\n| thread | thread | |\n';

describe('the report on a translation against its English doc', () => {
  let dir: string;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  const problems = () => translationProblems('ru', dir);
  const withSource = (text: string) => text.replace('\n---\n', `\nsource: ${sourceHash(ENGLISH_TOOL)}\n---\n`);
  const faithful = withSource(
    ENGLISH_TOOL.replace('title: exec_command\n', 'title: exec_command\n')
      .replace(
        'Runs `cmd` in a turn; see [Caching](prompt-caching.md). Sub-agents too.',
        'Запускает `cmd` за ход; см. [Кэш](prompt-caching.md). Субагенты тоже.',
      )
      .replace('## Parameters', '## Параметры')
      .replace('| `cmd` | The command, for example `ls | wc`. |', '| `cmd` | Команда, например `ls | wc`. |')
      .replace('### Example', '### Пример'),
  );

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concepts-'));
    write('languages.json', JSON.stringify({ fallback: 'en', languages: ['en', 'ru'], names: {} }));
    write('en/GLOSSARY.md', GLOSSARY_EN);
    write('en/tool.exec_command.md', ENGLISH_TOOL);
    write('en/prompt-caching.md', '---\ntitle: Caching\nkind: concept\n---\nText.');
    write(
      'ru/prompt-caching.md',
      `---\ntitle: Кэш\nkind: concept\nsource: ${sourceHash('---\ntitle: Caching\nkind: concept\n---\nText.')}\n---\nТекст.`,
    );
    write(
      'ru/GLOSSARY.md',
      GLOSSARY_EN.replace('| turn | turn | |', '| turn | ход | хода, ходе |')
        .replace('| sub-agent | sub-agent | subagent |', '| sub-agent | субагент | |')
        .replace('| thread | thread | |', '| thread | поток | |'),
    );
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds nothing wrong with a faithful translation', () => {
    write('ru/tool.exec_command.md', faithful);
    expect(Object.values(problems()).filter((p) => Object.keys(p).length)).toEqual([]);
  });

  it('says which doc is missing, and which doc English lacks', () => {
    fs.rmSync(path.join(dir, 'ru/tool.exec_command.md'), { force: true });
    write('ru/extra.md', '---\ntitle: Extra\n---\nx');
    try {
      expect(problems().docs).toEqual({ 'tool.exec_command': ['missing'], extra: ['English has no such doc'] });
    } finally {
      fs.rmSync(path.join(dir, 'ru/extra.md'));
    }
  });

  it('names a translation whose English doc changed since, or that records no source', () => {
    write('ru/tool.exec_command.md', faithful.replace(/source: \w+/, 'source: 000000000000'));
    expect(problems().source).toEqual({
      'tool.exec_command': [`source 000000000000, English is now ${sourceHash(ENGLISH_TOOL)}: English changed, translation not updated`],
    });
    write('ru/tool.exec_command.md', faithful.replace(/source: \w+\n/, ''));
    expect(problems().source['tool.exec_command'][0]).toMatch(/^no source/);
  });

  it('reports translated identifiers in the front matter', () => {
    write(
      'ru/tool.exec_command.md',
      faithful.replace('params: [cmd, workdir]', 'params: [cmd]').replace('title: exec_command', 'title: Команда'),
    );
    expect(problems().frontMatter).toEqual({
      'tool.exec_command': [
        'params [cmd], English [cmd, workdir]',
        'title Команда, English exec_command (a tool doc is titled by the tool name)',
      ],
    });
  });

  it('reports headings, code blocks, code spans, links and table rows that differ from English', () => {
    write(
      'ru/tool.exec_command.md',
      faithful
        .replace('### Пример', '## Пример')
        .replace('{"cmd": "ls"}', '{"cmd": "dir"}')
        .replace('например `ls | wc`', 'например `ls`')
        .replace('(prompt-caching.md)', '(prompt-cache.md)')
        .replace('| `workdir` | Where. |\n', ''),
    );
    const p = problems();
    expect(p.headings).toEqual({ 'tool.exec_command': ['## ##, English ## ###'] });
    expect(p.codeBlocks).toEqual({ 'tool.exec_command': ['code block 1 differs from English'] });
    expect(p.codeSpans).toEqual({ 'tool.exec_command': ['missing `ls | wc`', 'missing `workdir`', 'extra `ls`'] });
    expect(p.links).toEqual({ 'tool.exec_command': ['missing link to prompt-caching.md', 'extra link to prompt-cache.md'] });
    expect(p.tables).toEqual({ 'tool.exec_command': ['table 1 first column: `cmd`; English: `cmd`, `workdir`'] });
  });

  it('asks for every glossary key, and for the term where English uses it (not in code, not in link targets)', () => {
    write(
      'ru/GLOSSARY.md',
      GLOSSARY_EN.replace('| turn | turn | |', '| turn | ход | хода, ходе |')
        .replace('| sub-agent | sub-agent | subagent |\n', '')
        .replace('| thread | thread | |', '| thread | | |'),
    );
    write('ru/tool.exec_command.md', faithful.replace('за ход', 'за раз').replace('Субагенты тоже.', 'Тоже.'));
    try {
      const p = problems();
      expect(p.glossary).toEqual({ 'sub-agent': ['missing'], thread: ['no term'] });
      expect(p.glossaryTerms).toEqual({ 'tool.exec_command': ['turn: ход (or one of its forms)'] });
    } finally {
      write(
        'ru/GLOSSARY.md',
        GLOSSARY_EN.replace('| turn | turn | |', '| turn | ход | хода, ходе |')
          .replace('| sub-agent | sub-agent | subagent |', '| sub-agent | субагент | |')
          .replace('| thread | thread | |', '| thread | поток | |'),
      );
    }
  });

  it('names other products a doc mentions outside code', () => {
    write('ru/tool.exec_command.md', faithful.replace('Субагенты тоже.', 'Субагенты тоже, как в Claude; `Cursor` в коде не считается.'));
    expect(problems().otherProducts).toEqual({ 'tool.exec_command': ['Claude'] });
  });
});

describe('reading a glossary', () => {
  it('takes the title and each key with its term and comma-separated forms', () => {
    const g = parseGlossary(
      '# Глоссарий\n\nТермины.\n\n| key | term | forms |\n|---|---|---|\n| sub-agent | субагент | субагента, субагенты |\n| turn | ход | |\n',
    );
    expect(g.title).toBe('Глоссарий');
    expect([...g.entries]).toEqual([
      ['sub-agent', { term: 'субагент', forms: ['субагента', 'субагенты'] }],
      ['turn', { term: 'ход', forms: [] }],
    ]);
  });

  it('matches English terms as whole words with a plural s, and translated terms as substrings', () => {
    const entry = { term: 'rate limit', forms: ['rate-limit'] };
    expect(usesEnglishTerm('Two Rate Limits apply.', entry)).toBe(true);
    expect(usesEnglishTerm('A rate-limit header.', entry)).toBe(true);
    expect(usesEnglishTerm('The ratelimit field.', entry)).toBe(false);
    expect(usesEnglishTerm('The turnstile.', { term: 'turn', forms: [] })).toBe(false);
    expect(usesTranslatedTerm('Лимиты запросов', { term: 'лимит запросов', forms: ['лимиты запросов'] })).toBe(true);
    expect(usesTranslatedTerm('Die Ratenbegrenzungen', { term: 'Ratenbegrenzung', forms: [] })).toBe(true);
  });
});
