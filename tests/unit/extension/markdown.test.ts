// @vitest-environment happy-dom
import '../../support/happy-dom-node-accessors';
import { describe, expect, it } from 'vitest';
import { docLinkTarget, renderCode, renderMarkdown } from '../../../extension/lib/markdown';

const parse = (html: string) => {
  const div = document.createElement('div');
  div.innerHTML = html;
  return div;
};

describe('rendering markdown for the docs', () => {
  it('escapes raw HTML instead of passing it through', () => {
    const html = renderMarkdown('Before <b onclick="x()">bold</b> after');
    expect(parse(html).querySelector('b')).toBeNull();
    expect(parse(html).textContent).toContain('<b onclick="x()">bold</b>');
  });

  it('turns links to other docs into in-sheet links and leaves web links alone', () => {
    const root = parse(renderMarkdown('[a](tool.write_stdin.md) [b](https://example.com/x)'));
    const [doc, web] = root.querySelectorAll('a');
    expect(doc.getAttribute('data-doc')).toBe('tool.write_stdin');
    expect(doc.getAttribute('href')).toBe('#doc/tool.write_stdin');
    expect(web.getAttribute('data-doc')).toBeNull();
    expect(web.getAttribute('href')).toBe('https://example.com/x');
  });

  it('recognises doc links by file name only', () => {
    expect(docLinkTarget('prompt-caching.md')).toBe('prompt-caching');
    expect(docLinkTarget('tool.multi_agent_v1.spawn_agent.md#pitfalls')).toBe('tool.multi_agent_v1.spawn_agent');
    expect(docLinkTarget('../en/token-math.md')).toBeNull();
    expect(docLinkTarget('https://example.com/a.md')).toBeNull();
  });

  it('highlights known languages and escapes unknown ones', () => {
    expect(parse(renderCode('{"a": 1}', 'json')).querySelector('span.hljs-attr')?.textContent).toBe('"a"');
    const plain = parse(renderCode('<b>x</b>', 'nonexistent'));
    expect(plain.querySelector('b')).toBeNull();
    expect(plain.textContent).toBe('<b>x</b>');
  });
});
