/** The concept doc that explains a tool; its key is the companion's (protocol/tool-names.ts). */
import { docToolKey, type ToolName } from '../../companion/protocol';

export type { ToolName as ToolRef } from '../../companion/protocol';
export { canonicalTool, docToolKey as toolKey } from '../../companion/protocol';

/** MCP tools live in `mcp__<server>` namespaces, or in `<server>` with `non_prefixed_mcp_tool_names`. */
export function isMcpTool(ref: ToolName, mcpServers: Iterable<string> = []): boolean {
  const ns = ref.namespace;
  if (!ns) return false;
  return ns.startsWith('mcp__') || new Set(mcpServers).has(ns);
}

/** The doc that explains MCP server tools, which are the user's and have no doc of their own. */
export const MCP_TOOLS_DOC = 'mcp-tools';

/** `tool.exec_command`, `tool.multi_agent_v1.spawn_agent`: the doc file name without `.md`. */
export function toolDocName(ref: ToolName): string {
  return `tool.${docToolKey(ref)}`;
}
