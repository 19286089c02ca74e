/** One key per Codex tool wherever Codex places it, and the concept doc that explains it. */

export interface ToolRef {
  /** `null` for tools outside any namespace. */
  namespace: string | null;
  name: string;
}

/**
 * Code-mode models send their direct tools in an `additional_tools` namespace called `functions`:
 * it says where the tool travels, not which tool it is (codex-tools-0.169.md).
 */
const PLACEMENT_NAMESPACES = new Set(['functions']);

/** `[features.multi_agent_v2] tool_namespace = "agents"` renames the `collaboration` tools. */
const NAMESPACE_ALIASES: Record<string, string> = { agents: 'collaboration' };

export function canonicalTool(ref: ToolRef): ToolRef {
  const ns = ref.namespace && !PLACEMENT_NAMESPACES.has(ref.namespace) ? ref.namespace : null;
  return { namespace: ns ? (NAMESPACE_ALIASES[ns] ?? ns) : null, name: ref.name };
}

/** `collaboration.spawn_agent`, `exec_command`. Namespaces matter: the same name exists in several. */
export function toolKey(ref: ToolRef): string {
  const c = canonicalTool(ref);
  return c.namespace ? `${c.namespace}.${c.name}` : c.name;
}

/** MCP tools live in `mcp__<server>` namespaces, or in `<server>` with `non_prefixed_mcp_tool_names`. */
export function isMcpTool(ref: ToolRef, mcpServers: Iterable<string> = []): boolean {
  const ns = ref.namespace;
  if (!ns) return false;
  return ns.startsWith('mcp__') || new Set(mcpServers).has(ns);
}

/** The doc that explains MCP server tools, which are the user's and have no doc of their own. */
export const MCP_TOOLS_DOC = 'mcp-tools';

/** `tool.exec_command`, `tool.multi_agent_v1.spawn_agent`: the doc file name without `.md`. */
export function toolDocName(ref: ToolRef): string {
  return `tool.${toolKey(ref)}`;
}
