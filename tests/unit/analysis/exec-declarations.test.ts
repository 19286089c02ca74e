import { describe, expect, it } from 'vitest';
import { execPreamble, parseExecDeclarations } from '../../../companion/analysis/exec-declarations';
import { loadFixture } from '../../support/records';

/** The real exec description of a code-mode catalog model (gpt-6.1-sol), not elided. */
function execDescription(): string {
  const fx = loadFixture('codemode-text-1.json');
  const catalog = fx.request!.body.input.find((i: { type: string }) => i.type === 'additional_tools');
  const functions = catalog.tools.find((t: { name: string }) => t.name === 'functions');
  return functions.tools.find((t: { name: string }) => t.name === 'exec').description;
}

/** One tool's section with its declaration fenced, as Codex writes exec's description. */
const decl = (name: string, sig: string) => `### \`${name}\`\nexec tool declaration:\n\`\`\`ts\ndeclare const tools: { ${sig} };\n\`\`\``;

describe('parseExecDeclarations on the real exec description', () => {
  // Parsed inside each test (not while collecting them), so mutation testing sees which tests run the code.
  const parsed = () => parseExecDeclarations(execDescription());
  const byName = (n: string) => parsed().find((d) => d.declaredName === n)!;

  it('finds every declared tool in order, namespaces split at the last __', () => {
    expect(parsed().map((d) => [d.declaredName, d.namespace, d.name])).toEqual([
      ['apply_patch', null, 'apply_patch'],
      ['create_goal', null, 'create_goal'],
      ['exec_command', null, 'exec_command'],
      ['get_goal', null, 'get_goal'],
      ['list_mcp_resource_templates', null, 'list_mcp_resource_templates'],
      ['list_mcp_resources', null, 'list_mcp_resources'],
      ['read_mcp_resource', null, 'read_mcp_resource'],
      ['update_goal', null, 'update_goal'],
      ['view_image', null, 'view_image'],
      ['write_stdin', null, 'write_stdin'],
      ['clock__curr_time', 'clock', 'curr_time'],
    ]);
  });

  it('keeps apply_patch’s section from its heading to its closing fence, and its declaration', () => {
    expect(byName('apply_patch')).toEqual({
      declaredName: 'apply_patch',
      namespace: null,
      name: 'apply_patch',
      section: [
        '### `apply_patch`',
        'The `apply_patch` tool can be used to edit files. This is a FREEFORM tool, so do not wrap the patch in JSON.',
        '',
        'exec tool declaration:',
        '```ts',
        'declare const tools: { apply_patch(input: string): Promise<unknown>; };',
        '```',
      ].join('\n'),
      declaration: 'declare const tools: { apply_patch(input: string): Promise<unknown>; };',
      freeform: true,
    });
  });

  it('leaves the `## clock` namespace header out of write_stdin’s section', () => {
    const section = byName('write_stdin').section;
    expect(section.startsWith('### `write_stdin`\nWrites characters')).toBe(true);
    expect(section.endsWith('wall_time_seconds: number;\n}>; };\n```')).toBe(true);
    expect(section).not.toContain('## clock');
  });

  it('takes the last section to its declaration’s fence, the declaration without the fence', () => {
    expect(byName('clock__curr_time')).toMatchObject({
      section: [
        '### `clock__curr_time`',
        'Return the current time in UTC.',
        '',
        'exec tool declaration:',
        '```ts',
        'declare const tools: { clock__curr_time(args: {}): Promise<{',
        '  // Current UTC time formatted as YYYY-MM-DD HH:MM:SS UTC.',
        '  current_time: string;',
        '}>; };',
        '```',
      ].join('\n'),
      declaration: [
        'declare const tools: { clock__curr_time(args: {}): Promise<{',
        '  // Current UTC time formatted as YYYY-MM-DD HH:MM:SS UTC.',
        '  current_time: string;',
        '}>; };',
      ].join('\n'),
      freeform: false,
    });
  });

  it('marks only apply_patch as freeform', () => {
    expect(
      parsed()
        .filter((d) => d.freeform)
        .map((d) => d.declaredName),
    ).toEqual(['apply_patch']);
  });

  it('gives the text before the first heading as the preamble, without trailing blank lines', () => {
    const description = execDescription();
    const preamble = execPreamble(description);
    expect(description.startsWith(preamble)).toBe(true);
    expect(preamble.startsWith('Run JavaScript code to orchestrate/compose tool calls\n')).toBe(true);
    expect(preamble.endsWith('  [key: string]: unknown;\n};\n```')).toBe(true);
    expect(description.slice(preamble.length)).toMatch(/^\n+### `apply_patch`\n/);
  });
});

describe('parseExecDeclarations', () => {
  it('keeps a whole section, trimmed, when it has no declaration block', () => {
    const d = parseExecDeclarations('Intro\n### `a`\nJust prose.\n\n### `b`\nMore.\n');
    expect(d.map((x) => [x.declaredName, x.section, x.declaration, x.freeform])).toEqual([
      ['a', '### `a`\nJust prose.', null, false],
      ['b', '### `b`\nMore.', null, false],
    ]);
  });

  it('keeps the section to its end when the declaration block is never closed', () => {
    const text = '### `t`\nexec tool declaration:\n```ts\ndeclare const tools: { t(input: string): Promise<unknown>; };\n';
    const [d] = parseExecDeclarations(text);
    expect(d.section).toBe(text.trim());
    expect(d.declaration).toBe('declare const tools: { t(input: string): Promise<unknown>; };');
    expect(d.freeform).toBe(true);
  });

  it('keeps the section to its end when the declaration label has no fence after it', () => {
    const [d] = parseExecDeclarations('### `t`\nexec tool declaration: none\n\nTail text.');
    expect(d.section).toBe('### `t`\nexec tool declaration: none\n\nTail text.');
    expect(d.declaration).toBeNull();
  });

  it('ends a section at the fence that closes its declaration, not at the opening fence', () => {
    const text = [
      '### `t`',
      'exec tool declaration:',
      '```ts',
      'declare const tools: { t(args: {}): Promise<unknown>; };',
      '```',
      'after',
    ].join('\n');
    const [d] = parseExecDeclarations(text);
    expect(d.section).toBe(text.slice(0, text.indexOf('\nafter')));
  });

  it('reads a declaration that stands outside any fence to the end of the section', () => {
    const [d] = parseExecDeclarations('### `t`\ndeclare const tools: { t(args: {}): Promise<unknown>; };  \n');
    expect(d.declaration).toBe('declare const tools: { t(args: {}): Promise<unknown>; };');
  });

  it('calls a tool freeform only when its own name takes an `input` argument, spaces allowed', () => {
    const [spaced] = parseExecDeclarations(decl('t', 't ( input :string): Promise<unknown>;'));
    const [args] = parseExecDeclarations(decl('t', 't(args: { input: string }): Promise<unknown>;'));
    const [other] = parseExecDeclarations(decl('t', 'u(input: string): Promise<unknown>;'));
    const [dotted] = parseExecDeclarations(decl('a.b', 'axb(input: string): Promise<unknown>;'));
    expect([spaced.freeform, args.freeform, other.freeform, dotted.freeform]).toEqual([true, false, false, false]);
  });

  it('reads a tool name with regular-expression characters literally', () => {
    expect(parseExecDeclarations(decl('a.b', 'a.b(input: string): Promise<unknown>;'))[0].freeform).toBe(true);
  });

  it('trims the declaration inside its fence', () => {
    const [d] = parseExecDeclarations(
      '### `t`\nexec tool declaration:\n```ts\ndeclare const tools: { t(args: {}): Promise<unknown>; };  \n```',
    );
    expect(d.declaration).toBe('declare const tools: { t(args: {}): Promise<unknown>; };');
  });

  it('ends a section at its declaration block, not at an example block before it', () => {
    const text = [
      '### `t`',
      'Example:',
      '```js',
      'await tools.t({})',
      '```',
      'exec tool declaration:',
      '```ts',
      'declare const tools: { t(args: {}): Promise<unknown>; };',
      '```',
      'after',
    ].join('\n');
    const [d] = parseExecDeclarations(text);
    expect(d.section).toBe(text.slice(0, text.indexOf('\nafter')));
  });

  it('keeps a section with code blocks but no declaration label whole', () => {
    const text = ['### `t`', 'Example:', '```js', 'await tools.t({})', '```', 'More prose.'].join('\n');
    expect(parseExecDeclarations(text)[0].section).toBe(text);
  });

  it('takes the preamble up to a heading alone on its line only', () => {
    expect(execPreamble('Intro ### `a`\nmore')).toBe('Intro ### `a`\nmore');
    expect(execPreamble('Intro\n### `a` extra\nmore')).toBe('Intro\n### `a` extra\nmore');
    expect(execPreamble('Intro\n\n### `a`  \nmore')).toBe('Intro');
  });

  it('accepts headings with trailing spaces and ignores headings that are not alone on their line', () => {
    const d = parseExecDeclarations('### `a` \t\ntext\n### `b` extra\n  ### `c`\n#### `d`\n### `e`');
    expect(d.map((x) => x.declaredName)).toEqual(['a', 'e']);
    expect(d[0].section).toBe('### `a` \t\ntext\n### `b` extra\n  ### `c`\n#### `d`');
  });

  it('finds nothing in a description without headings, all of it preamble', () => {
    expect(parseExecDeclarations('Runs code.\n```ts\ndeclare const tools: {};\n```')).toEqual([]);
    expect(execPreamble('Runs code.\n\n')).toBe('Runs code.\n\n');
  });

  it('gives the same answer when called twice: the heading pattern keeps no state between calls', () => {
    const text = 'x\n### `a`\nA.\n### `b`\nB.';
    expect(execPreamble(text)).toBe('x');
    expect(parseExecDeclarations(text).map((d) => d.declaredName)).toEqual(['a', 'b']);
    expect(execPreamble(text)).toBe('x');
    expect(parseExecDeclarations(text).map((d) => d.declaredName)).toEqual(['a', 'b']);
  });

  it('gives an empty preamble when the description opens with a heading', () => {
    expect(execPreamble('### `a`\nA.')).toBe('');
  });
});
