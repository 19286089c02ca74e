import { describe, expect, it } from 'vitest';
import { parseExecDeclarations } from '../../support/exec-declarations';

const description = [
  'Run JavaScript.',
  '',
  '### `apply_patch`',
  'Edits files.',
  '',
  'exec tool declaration:',
  '```ts',
  'declare const tools: { apply_patch(input: string): Promise<unknown>; };',
  '```',
  '',
  '### `demo__lookup`',
  'Looks things up.',
  '',
  'exec tool declaration:',
  '```ts',
  'declare const tools: { demo__lookup(args: {',
  '  // Required. Where to look: a path like a:b or {x: 1}.',
  '  where: string;',
  '  // Filters, nested objects are not parameters.',
  '  filters?: Array<{',
  '  kind: "a" | "b";',
  '  value?: string;',
  '}>;',
  '  "quoted-name"?: number;',
  '  choice?: "x" | { completed: string | null; };',
  '}): Promise<{ found: boolean; }>; };',
  '```',
  '',
  '### `get_goal`',
  'exec tool declaration:',
  '```ts',
  'declare const tools: { get_goal(args: {}): Promise<unknown>; };',
  '```',
].join('\n');

describe('reading the code-mode exec declarations', () => {
  const parsed = parseExecDeclarations(description);
  const byName = (n: string) => parsed.find((d) => d.name === n);

  it('finds every declared tool in order', () => {
    expect(parsed.map((d) => d.name)).toEqual(['apply_patch', 'demo__lookup', 'get_goal']);
  });

  it('takes only top-level argument names, ignoring comments, nested objects and the return type', () => {
    expect(byName('demo__lookup')?.params).toEqual(['where', 'filters', 'quoted-name', 'choice']);
  });

  it('marks tools declared with a string input as freeform, without parameters', () => {
    expect(byName('apply_patch')).toMatchObject({ freeform: true, params: [] });
  });

  it('reads an empty argument object as no parameters', () => {
    expect(byName('get_goal')).toMatchObject({ freeform: false, params: [] });
  });

  it('keeps each tool section from its heading to the end of its declaration', () => {
    const section = byName('demo__lookup')?.section ?? '';
    expect(section.startsWith('### `demo__lookup`')).toBe(true);
    expect(section.endsWith('```')).toBe(true);
    expect(section).not.toContain('get_goal');
  });
});
