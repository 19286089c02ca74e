import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { parseDoc } from '../../../extension/lib/concept-doc';
import {
  SUPPORTED_LANGUAGES,
  browserLanguages,
  bundledDocs,
  createDocLibrary,
  languageName,
  matchLanguage,
  resolveLanguage,
} from '../../../extension/lib/docs';

const library = createDocLibrary({
  '/concepts/en/alpha.md': '---\ntitle: Alpha\nkind: concept\n---\nEnglish alpha.',
  '/concepts/en/tool.exec.md': '---\ntitle: exec\nkind: tool\ntool: exec\nparams: []\n---\nEnglish exec.',
  '/concepts/en/tool.collaboration.spawn_agent.md': '---\ntitle: spawn\nkind: tool\n---\nSpawn.',
  '/concepts/en/mcp-tools.md': '---\ntitle: MCP\nkind: concept\n---\nMCP.',
  '/concepts/zh/alpha.md': '---\ntitle: 阿尔法\nkind: concept\nsource: 0123456789ab\n---\n中文。',
  '/concepts/en/GLOSSARY.md': '# Glossary\n\n| key | term | forms |\n|---|---|---|\n| turn | turn | |',
  '/concepts/zh/GLOSSARY.md': '# 术语表\n\n| key | term | forms |\n|---|---|---|\n| turn | 轮次 | |',
});

describe('the bundled concept docs', () => {
  it('contains every English doc on disk, bundled at build time', () => {
    const onDisk = fs
      .readdirSync(path.resolve('concepts/en'))
      .filter((f) => f.endsWith('.md') && f !== 'GLOSSARY.md')
      .map((f) => f.slice(0, -3))
      .sort();
    expect(bundledDocs.names()).toEqual(onDisk);
    expect(bundledDocs.get('prompt-caching', 'en')?.doc.body).toContain('`idle_gap`');
  });

  it('leaves out the glossaries, which are for translators, not readers', () => {
    expect(bundledDocs.has('GLOSSARY')).toBe(false);
    expect(library.names()).not.toContain('GLOSSARY');
    expect(library.get('GLOSSARY', 'zh')).toBeNull();
  });
});

describe('parsing a doc', () => {
  it('reads title, kind, tool key, namespace and parameters from the front matter', () => {
    const doc = parseDoc(
      'tool.web.run',
      'en',
      '---\r\ntitle: "web.run: search"\r\nkind: tool\r\ntool: web.run\r\nnamespace: web\r\nparams: [open, find]\r\n---\r\nBody text.\r\n',
    );
    expect(doc).toMatchObject({ title: 'web.run: search', kind: 'tool', tool: 'web.run', namespace: 'web', params: ['open', 'find'] });
    expect(doc.body).toBe('Body text.');
  });

  it('ignores the `source` hash a translation records, and does not need it', () => {
    const withSource = parseDoc('alpha', 'zh', '---\ntitle: 阿尔法\nkind: concept\nsource: 0123456789ab\n---\n中文。');
    expect(withSource).toEqual({ ...parseDoc('alpha', 'zh', '---\ntitle: 阿尔法\nkind: concept\n---\n中文。') });
    expect(withSource).not.toHaveProperty('source');
    expect(library.get('alpha', 'zh')?.doc).toMatchObject({ title: '阿尔法', body: '中文。' });
  });

  it('treats a doc without front matter as a concept titled by its file name', () => {
    expect(parseDoc('loose', 'en', 'Just text.')).toMatchObject({ title: 'loose', kind: 'concept', params: [], body: 'Just text.' });
  });
});

describe('choosing the language', () => {
  it('prefers the extension setting over the browser language', () => {
    expect(resolveLanguage('ru', ['zh-CN', 'en'])).toBe('ru');
  });

  it('follows the browser languages when the setting is auto or unset', () => {
    expect(resolveLanguage('auto', ['fr-CA'])).toBe('fr');
    expect(resolveLanguage(null, ['it', 'ja-JP'])).toBe('ja');
  });

  it('matches regional and bare tags to the language that has docs', () => {
    expect(matchLanguage('pt', ['en', 'pt-BR'])).toBe('pt-BR');
    expect(matchLanguage('pt_br', ['en', 'pt-BR'])).toBe('pt-BR');
    expect(matchLanguage('zh-TW', ['en', 'zh'])).toBe('zh');
  });

  it('tells Traditional from Simplified Chinese by region and script', () => {
    const available = ['en', 'zh', 'zh-TW', 'ja'];
    for (const tag of ['zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant', 'zh-Hant-HK', 'zh_TW', 'zh-hant-tw'])
      expect([tag, matchLanguage(tag, available)]).toEqual([tag, 'zh-TW']);
    for (const tag of ['zh', 'zh-CN', 'zh-SG', 'zh-Hans', 'zh-Hans-CN', 'zh-Hans-HK', 'zh_CN'])
      expect([tag, matchLanguage(tag, available)]).toEqual([tag, 'zh']);
    expect(matchLanguage('zh-HK', ['en', 'zh'])).toBe('zh');
    expect(matchLanguage('zh-CN', ['en', 'zh-TW'])).toBe('zh-TW');
    expect(resolveLanguage('auto', ['zh-HK', 'en'])).toBe('zh-TW');
    expect(resolveLanguage(null, ['zh-CN'])).toBe('zh');
  });

  it('offers all ten languages, each with its native name', () => {
    expect(SUPPORTED_LANGUAGES).toEqual(['en', 'zh', 'zh-TW', 'ja', 'ko', 'pt-BR', 'ru', 'es', 'de', 'fr']);
    expect(languageName('zh-TW')).toBe('繁體中文');
    expect(languageName('ko')).toBe('한국어');
    expect(SUPPORTED_LANGUAGES.filter((l) => languageName(l) === l)).toEqual([]);
  });

  it('falls back to English when nothing matches', () => {
    expect(resolveLanguage('xx', ['it', 'nl'])).toBe('en');
  });

  it("asks the browser for its UI language before navigator's list", () => {
    vi.spyOn(fakeBrowser.i18n, 'getUILanguage').mockReturnValue('pt-BR');
    vi.stubGlobal('navigator', { languages: ['de-DE'], language: 'de-DE' });
    try {
      expect(browserLanguages().slice(0, 2)).toEqual(['pt-BR', 'de-DE']);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('finding a doc', () => {
  it('gives the doc in the chosen language when it exists', () => {
    expect(library.get('alpha', 'zh')).toMatchObject({ fallback: false, doc: { lang: 'zh', title: '阿尔法' } });
  });

  it('falls back to English, marked as a fallback, when the chosen language lacks the doc', () => {
    expect(library.get('tool.exec', 'zh')).toMatchObject({ fallback: true, requested: 'zh', doc: { lang: 'en' } });
    expect(library.get('tool.exec', 'en')?.fallback).toBe(false);
  });

  it('returns nothing for a doc that English lacks too', () => {
    expect(library.get('nope', 'zh')).toBeNull();
  });

  it('finds the doc of a tool wherever Codex placed it', () => {
    expect(library.docForTool({ namespace: 'functions', name: 'exec' })).toBe('tool.exec');
    expect(library.docForTool({ namespace: 'agents', name: 'spawn_agent' })).toBe('tool.collaboration.spawn_agent');
    expect(library.docForTool({ namespace: null, name: 'unknown_tool' })).toBeNull();
  });

  it('sends MCP server tools to the shared MCP doc', () => {
    expect(library.docForTool({ namespace: 'mcp__mini', name: 'echo' })).toBe('mcp-tools');
    expect(library.docForTool({ namespace: 'mini', name: 'echo' }, ['mini'])).toBe('mcp-tools');
  });
});
