import { describe, expect, it } from 'vitest';
import { isCleanCut, splitExecDescription } from '../../../companion/analysis/exec-nested';

const fence = (name: string) => [
  'exec tool declaration:',
  '```ts',
  `declare const tools: { ${name}(args: {}): Promise<unknown>; };`,
  '```',
];
const texts = (description: string) => {
  const parts = splitExecDescription(description);
  return [parts.preamble, ...parts.nested.map((n) => n.text)];
};

describe('isCleanCut', () => {
  it('is a cut only after a newline and before a character that is neither whitespace nor /', () => {
    expect(isCleanCut('a\nb', 2)).toBe(true);
    expect(isCleanCut('a\n b', 2)).toBe(false);
    expect(isCleanCut('a\n\nb', 2)).toBe(false);
    expect(isCleanCut('a\n/b', 2)).toBe(false);
    expect(isCleanCut('ab', 1)).toBe(false);
  });

  it('is never a cut at either end of the text', () => {
    expect(isCleanCut('a\n', 2)).toBe(false);
    expect(isCleanCut('b', 0)).toBe(false);
    expect(isCleanCut('\nb', 0)).toBe(false);
  });
});

describe('splitExecDescription', () => {
  it('gives a namespace header after a declaration fence to the tool that follows it', () => {
    const description = ['Intro.', '### `a`', ...fence('a'), '', '## ns', 'About ns.', '', '### `ns__b`', ...fence('ns__b'), ''].join('\n');
    expect(texts(description)).toEqual([
      'Intro.\n',
      ['### `a`', ...fence('a'), '', ''].join('\n'),
      ['## ns', 'About ns.', '', '### `ns__b`', ...fence('ns__b'), ''].join('\n'),
    ]);
  });

  it('cuts at the heading when only blank lines follow the previous fence', () => {
    const description = ['R.', '### `a`', ...fence('a'), '', '', '### `b`', 'B.'].join('\n');
    expect(texts(description)).toEqual(['R.\n', ['### `a`', ...fence('a'), '', '', ''].join('\n'), '### `b`\nB.']);
  });

  it('cuts at the heading when the text after the fence does not start cleanly', () => {
    const description = ['R.', '### `a`', ...fence('a'), '  indented note', '### `b`', 'B.'].join('\n');
    expect(texts(description)).toEqual(['R.\n', ['### `a`', ...fence('a'), '  indented note', ''].join('\n'), '### `b`\nB.']);
  });

  it('cuts at the heading when the previous section has no declaration, or an unclosed one', () => {
    const plain = ['R.', '### `a`', 'A.', '## ns', '### `b`', 'B.'].join('\n');
    expect(texts(plain)).toEqual(['R.\n', '### `a`\nA.\n## ns\n', '### `b`\nB.']);
    const unclosed = ['R.', '### `a`', 'exec tool declaration:', '```ts', 'x', '## ns', '### `b`', 'B.'].join('\n');
    expect(texts(unclosed)).toEqual(['R.\n', '### `a`\nexec tool declaration:\n```ts\nx\n## ns\n', '### `b`\nB.']);
  });

  it('does not take a declaration of a later section for the previous one', () => {
    // Section a has no fence of its own; b's fence lies after b's heading and must not move b's
    // start. The text after b's fence opens c's section.
    const description = ['R.', '### `a`', 'A.', '## ns', '### `b`', ...fence('b'), 'tail', '### `c`', 'C.'].join('\n');
    expect(texts(description)).toEqual(['R.\n', '### `a`\nA.\n## ns\n', ['### `b`', ...fence('b'), ''].join('\n'), 'tail\n### `c`\nC.']);
  });

  it('never starts a section inside the preamble, whatever fences and blank lines it holds', () => {
    const withFence = ['Intro', '```', 'code', '```', 'More intro', '### `a`', 'A.', '### `b`', 'B.'].join('\n');
    expect(texts(withFence)).toEqual(['Intro\n```\ncode\n```\nMore intro\n', '### `a`\nA.\n', '### `b`\nB.']);
    const blankFirst = ['', 'Intro', '### `a`', 'A.', '  note', '### `b`', 'B.'].join('\n');
    expect(texts(blankFirst)).toEqual(['\nIntro\n', '### `a`\nA.\n  note\n', '### `b`\nB.']);
    const blankFirstFence = ['', 'Intro', '### `a`', ...fence('a'), '  note', '### `b`', 'B.'].join('\n');
    expect(texts(blankFirstFence)).toEqual(['\nIntro\n', ['### `a`', ...fence('a'), '  note', ''].join('\n'), '### `b`\nB.']);
  });

  it('reads the line after a closing fence that carries text of its own', () => {
    const description = [
      'R.',
      '### `a`',
      'exec tool declaration:',
      '```ts',
      'declare const tools: {};',
      '```end',
      '## ns',
      '### `b`',
      'B.',
    ].join('\n');
    expect(texts(description)).toEqual([
      'R.\n',
      '### `a`\nexec tool declaration:\n```ts\ndeclare const tools: {};\n```end\n',
      '## ns\n### `b`\nB.',
    ]);
  });

  it('looks for the end of a section at its declaration block, not at an example block before it', () => {
    const description = ['R.', '### `a`', 'Example:', '```js', 'await tools.a({})', '```', ...fence('a'), '### `b`', 'B.'].join('\n');
    expect(texts(description)).toEqual([
      'R.\n',
      ['### `a`', 'Example:', '```js', 'await tools.a({})', '```', ...fence('a'), ''].join('\n'),
      '### `b`\nB.',
    ]);
  });

  it('does not cut at a heading that is not a clean line start', () => {
    const description = 'Intro.\n### `a`\nA.';
    expect(splitExecDescription(description).nested.map((n) => n.declaredName)).toEqual(['a']);
    // The first heading opens the text: no cut there, so no nested tool.
    expect(splitExecDescription('### `a`\nA.')).toEqual({ preamble: '### `a`\nA.', nested: [] });
  });

  it('names nested tools with namespaces split at the last __', () => {
    const parts = splitExecDescription('R.\n### `mcp__srv__echo`\nE.\n### `plain`\nP.');
    expect(parts.nested.map((n) => [n.declaredName, n.namespace, n.name])).toEqual([
      ['mcp__srv__echo', 'mcp__srv', 'echo'],
      ['plain', null, 'plain'],
    ]);
  });

  it('accepts trailing spaces after a heading but nothing else', () => {
    expect(splitExecDescription('R.\n### `a`  \nA.\n### `b` x\nB.').nested.map((n) => n.text)).toEqual(['### `a`  \nA.\n### `b` x\nB.']);
  });
});
