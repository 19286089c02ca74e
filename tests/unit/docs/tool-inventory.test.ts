import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectToolInventory, FIXTURES_DIR, type InventoryTool } from '../../support/tool-inventory';

/** The 41 built-in tool identities measured for Codex 0.169.0 (codex-tools-0.169.md). */
const BUILT_IN = [
  'exec_command',
  'write_stdin',
  'request_user_input',
  'request_user_input_async',
  'view_image',
  'get_goal',
  'create_goal',
  'update_goal',
  'update_plan',
  'apply_patch',
  'web_search',
  'tool_search',
  'list_mcp_resources',
  'list_mcp_resource_templates',
  'read_mcp_resource',
  'exec',
  'wait',
  'request_permissions',
  'send_message_to_user_async',
  'new_context',
  'get_context_remaining',
  'multi_env_copy_file',
  'wait_for_environment',
  'multi_agent_v1.close_agent',
  'multi_agent_v1.resume_agent',
  'multi_agent_v1.send_input',
  'multi_agent_v1.spawn_agent',
  'multi_agent_v1.wait_agent',
  'collaboration.followup_task',
  'collaboration.interrupt_agent',
  'collaboration.list_agents',
  'collaboration.send_message',
  'collaboration.spawn_agent',
  'collaboration.wait_agent',
  'clock.curr_time',
  'clock.sleep',
  'skills.installations',
  'skills.list',
  'skills.read',
  'web.run',
  'image_gen.imagegen',
];

describe('the tool inventory of the captured requests', () => {
  let tools: InventoryTool[];
  const tool = (key: string) => tools.find((t) => t.key === key);

  beforeAll(() => {
    tools = collectToolInventory();
  });

  it('finds every built-in tool identity Codex 0.169.0 sends, and no other built-in', () => {
    expect(BUILT_IN).toHaveLength(41);
    expect(
      tools
        .filter((t) => !t.mcp)
        .map((t) => t.key)
        .sort(),
    ).toEqual([...BUILT_IN].sort());
  });

  it('keys namespaced tools by namespace and name, keeping same-named tools apart', () => {
    expect(tool('multi_agent_v1.spawn_agent')?.params).toEqual(['fork_context', 'items', 'message', 'model', 'reasoning_effort']);
    expect(tool('collaboration.spawn_agent')?.params).toEqual(['fork_turns', 'message', 'model', 'reasoning_effort', 'task_name']);
    expect(tool('collaboration.wait_agent')?.namespace).toBe('collaboration');
    expect(tool('spawn_agent')).toBeUndefined();
  });

  it('counts the code-mode functions namespace and the renamed agents namespace as the tools they stand for', () => {
    expect(tools.some((t) => t.namespace === 'functions' || t.namespace === 'agents')).toBe(false);
    expect(tool('exec')?.placements).toContain('additional_tools');
    expect(tool('collaboration.list_agents')?.params).toEqual(['path_prefix']);
  });

  it('takes nested tool names and parameter names from the code-mode exec declarations of a full request', () => {
    // This capture has web.run only as `web__run` inside the exec description.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-'));
    try {
      fs.copyFileSync(path.join(FIXTURES_DIR, 'requests/gpt-6.1-sol-builtin.json'), path.join(dir, 'one.json'));
      const only = collectToolInventory(dir);
      const webRun = only.find((t) => t.key === 'web.run');
      expect(webRun?.placements).toEqual(['exec_nested']);
      expect(webRun?.params).toEqual([
        'click',
        'finance',
        'find',
        'image_query',
        'open',
        'response_length',
        'screenshot',
        'search_query',
        'sports',
        'time',
        'weather',
      ]);
      expect(only.find((t) => t.key === 'apply_patch')?.params).toEqual([]);
      expect(only.find((t) => t.key === 'clock.curr_time')?.placements).toEqual(['exec_nested']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('unions parameters that only some configurations send', () => {
    expect(tool('exec_command')?.params).toContain('additional_permissions');
    expect(tool('view_image')?.params).toEqual(['detail', 'path']);
  });

  it('reads the settings of hosted tools beside their type', () => {
    expect(tool('web_search')?.options).toEqual(['external_web_access', 'filters', 'search_content_types', 'search_context_size']);
    expect(tool('tool_search')?.options).toEqual(['execution']);
    expect(tool('tool_search')?.params).toEqual(['limit', 'query']);
  });

  it('includes deferred tools loaded through tool_search_output', () => {
    expect(tool('multi_agent_v1.wait_agent')?.placements).toContain('tool_search_output');
  });

  it('marks MCP server tools, including non-prefixed server namespaces, as not built in', () => {
    expect(tool('mcp__mini.echo')).toMatchObject({ mcp: true, params: ['text'] });
    expect(tool('mini.echo')?.mcp).toBe(true);
  });
});
