/**
 * @module Sub-agent nicknames, a fact that arrives later: a multi_agent_v1 child reports the
 * agent name "/root"; its nickname comes in the parent's `spawn_agent` output, whose `agent_id`
 * is the child's thread id (codex-protocol.md §6). Read from Codex's own items, never from prose.
 */
type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** `agent_id → nickname` pairs from `spawn_agent` call outputs in a request's input. */
export function spawnedNicknames(body: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!isObj(body) || !Array.isArray(body.input)) return out;
  const spawnCalls = new Set<string>();
  for (const item of body.input) {
    if (isObj(item) && item.type === 'function_call' && item.name === 'spawn_agent' && typeof item.call_id === 'string')
      spawnCalls.add(item.call_id);
  }
  for (const item of body.input) {
    if (!isObj(item) || item.type !== 'function_call_output' || typeof item.call_id !== 'string' || !spawnCalls.has(item.call_id)) continue;
    try {
      const out_ = JSON.parse(String(item.output)) as unknown;
      if (isObj(out_) && typeof out_.agent_id === 'string' && typeof out_.nickname === 'string') out.set(out_.agent_id, out_.nickname);
    } catch {
      // not the JSON shape Codex uses for spawn results; nothing to learn
    }
  }
  return out;
}
