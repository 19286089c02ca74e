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
