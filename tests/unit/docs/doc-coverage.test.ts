import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docCoverage, type LanguageCoverage } from '../../support/doc-coverage';
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
  'languages.json': JSON.stringify({ fallback: 'en', complete: ['en', 'zh', 'ru'], conceptsOnly: ['ja'], names: {} }),
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

  it('asks complete languages for every English doc and a doc per captured tool', () => {
    expect(byLang.en.missingDocs).toEqual(['tool.clock.sleep']);
    expect(byLang.zh.missingDocs).toEqual(['mcp-tools']);
  });

  it('asks concepts-only languages for the general concepts alone', () => {
    expect(byLang.ja).toMatchObject({ scope: 'concepts', missingDocs: ['mcp-tools'], missingParams: {} });
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
