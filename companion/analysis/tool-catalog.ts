/**
 * @module Every tool a request declares, wherever it travels (codex-tools-0.169.md): `body.tools`
 * (functions, namespace groups, custom grammar tools, hosted tools), `additional_tools` input
 * items (code-mode catalog models), tools nested in the code-mode `exec` description, and
 * deferred tools loaded by `tool_search_output` items.
 */
import type { ToolKind, ToolPlacement, ToolRef } from '../protocol/analysis';
import { analysisToolKey } from '../protocol/tool-names';
import { splitExecDescription, type NestedToolText } from './exec-nested';
import { arr, isObj, str, type Json } from '../lib/json';

export interface ToolEntry {
  ref: ToolRef;
  /** `function`, `custom`, `web_search`, … (`nested` for exec declarations). */
  type: string;
  description: string | null;
  /** The tool object as sent (for `exec`, its description stands without the nested sections). */
  definition: Json;
  /** The enclosing namespace group's description on its first tool only (counted once), else null. */
  namespaceDescription: string | null;
  /** The enclosing namespace group's description on every one of its tools (as the panel shows it). */
  groupDescription: string | null;
  /** Input item carrying the tool (`additional_tools`, `tool_search_output`), else null. */
  itemIndex: number | null;
  /** For `exec`: the description before its nested sections. */
  execPreamble: string | null;
  /** For nested tools: their section of the exec description. */
  nestedText: string | null;
}

/** Namespaces that carry Codex's own tools; `functions` only says where code-mode tools travel. */
const BUILTIN_NAMESPACES = new Set(['functions', 'multi_agent_v1', 'collaboration', 'agents', 'clock', 'skills', 'web', 'image_gen']);
const BUILTIN_NAMES = new Set([
  'exec_command', 'write_stdin', 'shell', 'shell_command', 'local_shell', 'request_user_input', 'request_user_input_async',
  'view_image', 'get_goal', 'create_goal', 'update_goal', 'update_plan', 'apply_patch', 'list_mcp_resources',
  'list_mcp_resource_templates', 'read_mcp_resource', 'exec', 'wait', 'request_permissions', 'send_message_to_user_async',
  'new_context', 'get_context_remaining', 'multi_env_copy_file', 'wait_for_environment', 'tool_search',
]); // prettier-ignore
const PLAIN_TYPES = new Set(['function', 'custom', 'namespace']);

function kindOf(type: string, namespace: string | null, name: string): ToolKind {
  if (!PLAIN_TYPES.has(type) && type !== 'nested') return 'hosted';
  if (namespace?.startsWith('mcp__') || name.startsWith('mcp__')) return 'mcp';
  if (namespace ? BUILTIN_NAMESPACES.has(namespace) : BUILTIN_NAMES.has(name)) return 'builtin';
  return 'dynamic';
}

/** A tool's entry; for `exec`, followed by the entries of the tools nested in its description. */
function entries(
  tool: Json,
  placement: ToolPlacement,
  namespace: string | null,
  nsDescription: string | null,
  itemIndex: number | null,
  groupDescription: string | null = nsDescription,
): ToolEntry[] {
  const type = str(tool.type) ?? 'unknown';
  const name = str(tool.name) ?? type;
  const ns = namespace ?? str(tool.namespace);
  const description = typeof tool.description === 'string' ? tool.description : null;
  const ref: ToolRef = { key: analysisToolKey(ns, name), namespace: ns, name, placement, kind: kindOf(type, ns, name) };
  const isExec = type === 'custom' && name === 'exec' && description !== null;
  const exec = isExec ? splitExecDescription(description) : null;
  const e: ToolEntry = {
    ref,
    type,
    description,
    definition: tool,
    namespaceDescription: nsDescription,
    groupDescription,
    itemIndex,
    execPreamble: exec ? exec.preamble : null,
    nestedText: null,
  };
  return exec ? [e, ...exec.nested.map((n) => nestedEntry(e, n))] : [e];
}

function nestedEntry(parent: ToolEntry, n: NestedToolText): ToolEntry {
  const key = `exec/${analysisToolKey(n.namespace, n.name)}`;
  return {
    ref: { key, namespace: n.namespace, name: n.name, placement: 'exec', kind: kindOf('nested', n.namespace, n.name) },
    type: 'nested',
    description: null,
    definition: { type: 'nested', name: n.declaredName },
    namespaceDescription: null,
    groupDescription: null,
    itemIndex: parent.itemIndex,
    execPreamble: null,
    nestedText: n.text,
  };
}

/** Flattens a tools array (namespace groups expanded) into entries, exec's nested tools after exec. */
export function toolsFromList(list: unknown, placement: ToolPlacement, itemIndex: number | null = null): ToolEntry[] {
  const out: ToolEntry[] = [];
  for (const t of arr(list)) {
    if (!isObj(t)) continue;
    if (t.type === 'namespace' && Array.isArray(t.tools)) {
      const ns = str(t.name);
      const nsDescription = typeof t.description === 'string' && t.description !== '' ? t.description : null;
      t.tools.forEach((inner, i) => {
        if (isObj(inner)) out.push(...entries(inner, placement, ns, i === 0 ? nsDescription : null, itemIndex, nsDescription));
      });
    } else out.push(...entries(t, placement, null, null, itemIndex));
  }
  return out;
}

/** Tools of the whole request, in the order they appear. */
export function requestTools(body: Json): ToolEntry[] {
  const tools = toolsFromList(body.tools, 'tools');
  arr(body.input).forEach((item, i) => {
    if (!isObj(item)) return;
    if (item.type === 'additional_tools') tools.push(...toolsFromList(item.tools, 'additional_tools', i));
    else if (item.type === 'tool_search_output') tools.push(...toolsFromList(item.tools, 'tool_search_output', i));
  });
  return tools;
}
