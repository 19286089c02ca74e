// @vitest-environment happy-dom
import '../../support/happy-dom-node-accessors';
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import DocSheet from '../../../extension/components/docs/DocSheet.vue';
import { DOC_LIBRARY, createDocLibrary } from '../../../extension/lib/docs';

const ATTACKS = [
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '[click me](javascript:window.__pwned=1)',
  '<a href="javascript:window.__pwned=1">raw link</a>',
  '<iframe src="https://example.com"></iframe>',
].join('\n\n');

const testDocs = createDocLibrary({
  'en/evil.md': `---\ntitle: Evil\nkind: concept\n---\n${ATTACKS}`,
  'en/tool.demo.md':
    '---\ntitle: demo\nkind: tool\ntool: demo\nparams: [a]\n---\nTakes `a`.\n\n```json\n{"a": 1}\n```\n\n[Web](https://example.com/page)',
  'en/only-english.md': '---\ntitle: Only English\nkind: concept\n---\nThe English text.',
  'zh/tool.demo.md':
    '---\ntitle: 演示\nkind: tool\ntool: demo\nparams: [a]\nsource: 0123456789ab\n---\n参数 `a`。\n\n[Only English](only-english.md)',
  'zh-TW/tool.demo.md': '---\ntitle: 示範\nkind: tool\ntool: demo\nparams: [a]\n---\n參數 `a`。',
});

let wrapper: VueWrapper | undefined;

function open(props: Record<string, unknown>, library?: ReturnType<typeof createDocLibrary>) {
  wrapper = mount(DocSheet, {
    props: { lang: 'en', ...props } as never,
    global: library ? { provide: { [DOC_LIBRARY as symbol]: library } } : {},
    attachTo: document.body,
  });
  return wrapper;
}

function expectInert(root: Element) {
  expect(root.querySelectorAll('script, img, iframe, [onerror]')).toHaveLength(0);
  for (const a of root.querySelectorAll('a')) expect(a.getAttribute('href') ?? '').not.toMatch(/^\s*javascript:/i);
  expect((window as unknown as { __pwned?: unknown }).__pwned).toBeUndefined();
}

afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
});

describe('the doc sheet', () => {
  it('shows a bundled doc with its title and its markdown rendered', () => {
    const w = open({ doc: 'prompt-caching' });
    expect(w.get('[data-testid="doc-title"]').text()).toBe('Prompt caching and cache misses');
    expect(
      w
        .get('[data-testid="doc-body"]')
        .findAll('table td code')
        .map((c) => c.text()),
    ).toContain('tools_changed');
  });

  it('never runs or keeps raw HTML, event handlers or script links from a doc', () => {
    const w = open({ doc: 'evil' }, testDocs);
    const body = w.get('[data-testid="doc-body"]');
    expectInert(body.element);
    expect(body.text()).toContain('<script>window.__pwned = "script"</script>');
  });

  it('never runs or keeps raw HTML, event handlers or script links from a captured tool description', () => {
    const w = open(
      { doc: 'tool.demo', liveTool: { description: ATTACKS, schema: { title: '<img src=x onerror="window.__pwned=2">' } } },
      testDocs,
    );
    const live = w.get('[data-testid="doc-live"]');
    expectInert(live.element);
    expect(live.text()).toContain('<img src="x" onerror=');
    expect(w.get('[data-testid="doc-live-schema"]').text()).toContain('onerror=\\"window.__pwned=2\\"');
  });

  it('falls back to English with a visible note when the chosen language lacks the doc', () => {
    const w = open({ doc: 'only-english', lang: 'zh' }, testDocs);
    expect(w.get('[data-testid="doc-fallback"]').text()).toContain('中文');
    expect(w.get('[data-testid="doc-body"]').text()).toBe('The English text.');
  });

  it('keeps the fallback note in view: at the top of a linked doc that lacks the translation', async () => {
    const w = open({ doc: 'tool.demo', lang: 'zh' }, testDocs);
    expect(w.find('[data-testid="doc-fallback"]').exists()).toBe(false);
    const sheet = w.get('.doc-sheet').element as HTMLElement;
    const scrollTo = vi.fn();
    sheet.scrollTo = scrollTo as never;
    await w.get('[data-testid="doc-body"] a[data-doc="only-english"]').trigger('click');
    await nextTick();
    const note = w.get('[data-testid="doc-fallback"]');
    expect(note.attributes('role')).toBe('note');
    expect(note.text()).toBe('Not yet available in 简体中文: showing the English text.');
    expect(note.element.nextElementSibling).toBe(w.get('[data-testid="doc-body"]').element);
    expect(w.get('[data-testid="doc-body"]').attributes('lang')).toBe('en');
    expect(scrollTo).toHaveBeenCalledWith({ top: 0 });
  });

  it('follows the language setting while open, and the browser when the setting is auto', async () => {
    const w = open({ doc: 'tool.demo', lang: 'zh' }, testDocs);
    expect(w.get('[data-testid="doc-body"]').attributes('lang')).toBe('zh');
    await w.setProps({ lang: 'zh-TW' });
    expect(w.get('[data-testid="doc-title"]').text()).toBe('示範');
    await w.setProps({ lang: 'en' });
    expect(w.get('[data-testid="doc-title"]').text()).toBe('demo');
    vi.stubGlobal('navigator', { languages: ['zh-HK'], language: 'zh-HK' });
    try {
      await w.setProps({ lang: 'auto' });
      expect(w.get('[data-testid="doc-title"]').text()).toBe('示範');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shows the translation without a note when the chosen language has the doc', () => {
    const w = open({ doc: 'tool.demo', lang: 'zh-CN' }, testDocs);
    expect(w.get('[data-testid="doc-title"]').text()).toBe('演示');
    expect(w.find('[data-testid="doc-fallback"]').exists()).toBe(false);
  });

  it('opens a linked doc in the same sheet and goes back to the first', async () => {
    const w = open({ doc: 'tool.exec_command' });
    expect(w.find('[data-testid="doc-back"]').exists()).toBe(false);
    await w.get('[data-testid="doc-body"] a[data-doc="tool.write_stdin"]').trigger('click');
    expect(w.get('[data-testid="doc-title"]').text()).toBe('write_stdin');
    await w.get('[data-testid="doc-back"]').trigger('click');
    expect(w.get('[data-testid="doc-title"]').text()).toBe('exec_command');
  });

  it('opens web links in a new tab instead of navigating the extension page', async () => {
    const opened = vi.spyOn(window, 'open').mockReturnValue(null);
    const w = open({ doc: 'tool.demo' }, testDocs);
    await w.get('[data-testid="doc-body"] a[href="https://example.com/page"]').trigger('click');
    expect(opened).toHaveBeenCalledWith('https://example.com/page', '_blank', 'noopener,noreferrer');
    expect(w.get('[data-testid="doc-title"]').text()).toBe('demo');
  });

  it('highlights code blocks', () => {
    const w = open({ doc: 'tool.update_plan' });
    const code = w.get('[data-testid="doc-body"] pre code.language-toml');
    expect(code.findAll('span[class^="hljs-"]').length).toBeGreaterThan(0);
  });

  it('shows the tool as Codex sent it in the exchange: description and highlighted schema', () => {
    const schema = { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] };
    const w = open({ doc: 'tool.exec_command', liveTool: { description: 'Runs a **command**.', schema } });
    expect(w.get('[data-testid="doc-live-description"] strong').text()).toBe('command');
    const shown = w.get('[data-testid="doc-live-schema"]');
    expect(JSON.parse(shown.text())).toEqual(schema);
    expect(shown.findAll('span.hljs-attr').length).toBeGreaterThan(0);
  });

  it('says where the live definition will appear when no exchange carries the tool', () => {
    const w = open({ doc: 'tool.exec_command' });
    expect(w.get('[data-testid="doc-live-empty"]').text()).toContain('when an exchange that carries this tool is selected');
  });

  it('shows no live section on a concept doc', () => {
    expect(open({ doc: 'token-math' }).find('[data-testid="doc-live"]').exists()).toBe(false);
  });

  it('asks for the live definition of tool docs reached through links', async () => {
    const liveToolFor = vi.fn((key: string) => (key === 'write_stdin' ? { description: 'Live write_stdin text.' } : null));
    const w = open({ doc: 'tool.exec_command', liveToolFor });
    await w.get('[data-testid="doc-body"] a[data-doc="tool.write_stdin"]').trigger('click');
    expect(liveToolFor).toHaveBeenCalledWith('write_stdin');
    expect(w.get('[data-testid="doc-live-description"]').text()).toBe('Live write_stdin text.');
  });

  it('says so when there is no such doc', () => {
    expect(open({ doc: 'no-such-doc' }).get('[data-testid="doc-missing"]').text()).toContain('no-such-doc');
  });

  it('asks to be closed from its close button', async () => {
    const w = open({ doc: 'token-math' });
    await w.get('button[aria-label="Close"]').trigger('click');
    expect(w.emitted('close')).toHaveLength(1);
  });
});
