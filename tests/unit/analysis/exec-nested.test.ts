import { describe, expect, it } from 'vitest';
import { isCleanCut, splitExecDescription } from '../../../companion/analysis/exec-nested';
import { splitDeclaredName } from '../../../companion/protocol';
import { loadFixture } from '../../support/records';

/** The real exec description of a code-mode catalog model (gpt-6.1-sol), not elided. */
function execDescription(): string {
  const fx = loadFixture('codemode-text-1.json');
  const catalog = fx.request!.body.input.find((i: { type: string }) => i.type === 'additional_tools');
  const functions = catalog.tools.find((t: { name: string }) => t.name === 'functions');
  return functions.tools.find((t: { name: string }) => t.name === 'exec').description;
}

describe('splitExecDescription', () => {
  it('finds every tool the real exec description declares, with namespaces split at __', () => {
    const parts = splitExecDescription(execDescription());
    expect(parts.nested.map((n) => n.declaredName)).toEqual([
      'apply_patch',
      'create_goal',
      'exec_command',
      'get_goal',
      'list_mcp_resource_templates',
      'list_mcp_resources',
      'read_mcp_resource',
      'update_goal',
      'view_image',
      'write_stdin',
      'clock__curr_time',
    ]);
    expect(parts.nested.at(-1)).toMatchObject({ namespace: 'clock', name: 'curr_time' });
  });

  it('cuts the description into parts that put it back together exactly', () => {
    const description = execDescription();
    const parts = splitExecDescription(description);
    expect(parts.preamble + parts.nested.map((n) => n.text).join('')).toBe(description);
  });

  it('cuts only at clean line starts, and gives a namespace header to the tool that follows it', () => {
    const description = execDescription();
    const parts = splitExecDescription(description);
    let at = parts.preamble.length;
    for (const n of parts.nested) {
      expect(isCleanCut(description, at)).toBe(true);
      at += n.text.length;
    }
    const clock = parts.nested.find((n) => n.declaredName === 'clock__curr_time')!;
    expect(clock.text.startsWith('## clock\n')).toBe(true);
    expect(parts.nested.find((n) => n.name === 'write_stdin')!.text).not.toContain('## clock');
  });

  it('treats a description without nested sections as all preamble', () => {
    expect(splitExecDescription('Runs code.\nNo tools here.')).toEqual({ preamble: 'Runs code.\nNo tools here.', nested: [] });
  });

  it('splits declared names at the last double underscore only', () => {
    expect(splitDeclaredName('mcp__mini__echo')).toEqual({ namespace: 'mcp__mini', name: 'echo' });
    expect(splitDeclaredName('apply_patch')).toEqual({ namespace: null, name: 'apply_patch' });
  });
});
