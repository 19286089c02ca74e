import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { parseDoc } from '../../../extension/lib/concept-doc';
import { browserLanguages, bundledDocs, createDocLibrary, matchLanguage, resolveLanguage } from '../../../extension/lib/docs';

const library = createDocLibrary({
  '/concepts/en/alpha.md': '---\ntitle: Alpha\nkind: concept\n---\nEnglish alpha.',
  '/concepts/en/tool.exec.md': '---\ntitle: exec\nkind: tool\ntool: exec\nparams: []\n---\nEnglish exec.',
  '/concepts/en/tool.collaboration.spawn_agent.md': '---\ntitle: spawn\nkind: tool\n---\nSpawn.',
  '/concepts/en/mcp-tools.md': '---\ntitle: MCP\nkind: concept\n---\nMCP.',
  '/concepts/zh/alpha.md': '---\ntitle: 阿尔法\nkind: concept\n---\n中文。',
});

describe('the bundled concept docs', () => {
  it('contains every English doc on disk, bundled at build time', () => {
    const onDisk = fs
      .readdirSync(path.resolve('concepts/en'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.slice(0, -3))
      .sort();
    expect(bundledDocs.names()).toEqual(onDisk);
    expect(bundledDocs.get('prompt-caching', 'en')?.doc.body).toContain('`idle_gap`');
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
