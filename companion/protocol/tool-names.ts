/**
 * @module How tools are named on both sides: Codex's code-mode names, and the key the analysis
 * gives each tool. The extension joins the analysis' token estimates to the tools it shows by
 * this key, so both must build it the same way.
 */

/** Code mode joins namespace and name with `__` (`clock__curr_time`); the last `__` separates them. */
export function splitDeclaredName(declared: string): { namespace: string | null; name: string } {
  const at = declared.lastIndexOf('__');
  if (at <= 0 || at + 2 >= declared.length) return { namespace: null, name: declared };
  return { namespace: declared.slice(0, at), name: declared.slice(at + 2) };
}

/**
 * `exec_command`, `collaboration.spawn_agent`. The placement namespace `functions` says where a
 * tool travels, not which tool it is (codex-tools-0.169.md), so it is left out.
 */
export function analysisToolKey(namespace: string | null, name: string): string {
  return namespace && namespace !== 'functions' ? `${namespace}.${name}` : name;
}

/** A tool named by namespace (null outside any) and name. */
export interface ToolName {
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

/** The tool as its docs know it: placement namespaces dropped, renamed namespaces aliased. */
export function canonicalTool(ref: ToolName): ToolName {
  const ns = ref.namespace && !PLACEMENT_NAMESPACES.has(ref.namespace) ? ref.namespace : null;
  return { namespace: ns ? (NAMESPACE_ALIASES[ns] ?? ns) : null, name: ref.name };
}

/** `collaboration.spawn_agent`, `exec_command`: the key a tool's doc is filed under. */
export function docToolKey(ref: ToolName): string {
  const c = canonicalTool(ref);
  return c.namespace ? `${c.namespace}.${c.name}` : c.name;
}
