import { describe, expect, it } from 'vitest';
import { itemText } from '../../../companion/store/sqlite/item-text';

describe('the searchable text of a stored item', () => {
  it('keeps what the user and the assistant wrote, reasoning summaries and tool calls, lower-cased', () => {
    expect(itemText({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the Parser' }] })).toBe('fix the parser');
    expect(itemText({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] })).toBe('done.');
    expect(itemText({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Looking at X' }], encrypted_content: 'gAAA' })).toBe(
      'looking at x',
    );
    expect(itemText({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"LS"}' })).toBe('exec_command\n{"cmd":"ls"}');
    expect(itemText({ type: 'function_call_output', output: 'Total 0' })).toBe('total 0');
    expect(itemText({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch' })).toBe('apply_patch\n*** begin patch');
    expect(itemText({ type: 'web_search_call', action: { type: 'search', query: 'SQLite FTS5' } })).toBe('sqlite fts5');
  });

  it('leaves out Codex’s own instructions and items without text, which every session carries', () => {
    expect(itemText({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are Codex' }] })).toBeNull();
    expect(itemText({ type: 'message', role: 'system', content: 'rules' })).toBeNull();
    expect(itemText({ type: 'additional_tools', tools: [] })).toBeNull();
    expect(itemText({ type: 'reasoning', summary: [], encrypted_content: 'gAAA' })).toBeNull();
    expect(itemText('just a string')).toBeNull();
  });
});
