/**
 * @module `spawn_agent` calls found in a request's input, paired with their outputs
 * (codex-protocol.md §6): v1 (`multi_agent_v1`) answers `{"agent_id","nickname"}`, where
 * agent_id is the child's thread id; v2 (`collaboration`, or `agents` when renamed) answers
 * `{"task_name":"/root/<task>"}`, the child's agent name.
 */
import type { SpawnLink } from '../protocol/analysis';
import { arr, clip, isObj, str, type Json } from '../lib/json';

function parseObject(text: unknown): Json {
  if (typeof text !== 'string') return {};
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? v : {};
  } catch {
    return {}; // outputs like "aborted" (a forked child's copy) carry no link
  }
}

/** Every `spawn_agent` call in the input, with what its output says about the child. */
export function spawnLinks(body: unknown): SpawnLink[] {
  const input = arr(isObj(body) ? body.input : undefined).filter(isObj);
  const outputs = new Map<string, unknown>();
  for (const item of input) if (item.type === 'function_call_output' && str(item.call_id)) outputs.set(String(item.call_id), item.output);
  const links: SpawnLink[] = [];
  for (const item of input) {
    if (item.type !== 'function_call' || item.name !== 'spawn_agent') continue;
    const callId = str(item.call_id);
    if (!callId) continue;
    const args = parseObject(item.arguments);
    const out = parseObject(outputs.get(callId));
    const childName = str(out.task_name);
    links.push({
      callId,
      namespace: str(item.namespace),
      childThreadId: str(out.agent_id),
      childAgentName: childName?.startsWith('/') ? childName : null,
      nickname: str(out.nickname),
      taskName: str(args.task_name),
      model: str(args.model),
      reasoningEffort: str(args.reasoning_effort),
      arguments: clip(typeof item.arguments === 'string' ? item.arguments : '', 400),
    });
  }
  return links;
}
