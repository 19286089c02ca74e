/**
 * @module The parts of a Responses request body the analysis reads, and its zones: the leading
 * tool catalogs (`additional_tools`), the leading developer messages that stand in for
 * `instructions` in Codex 0.169 (codex-protocol.md §2.2), and the conversation after them.
 */
import type { InputZone } from '../protocol/analysis';
import { isLeadingItem } from '../protocol/section-names';
import { arr, isObj, str, type Json } from '../lib/json';

export interface RequestShape {
  body: Json;
  input: unknown[];
  /** First input index after the leading tool catalogs and developer messages. */
  conversationStart: number;
  model: string | null;
  reasoningEffort: string | null;
  serviceTier: string | null;
  promptCacheKey: string | null;
  /** The `instructions` field, when a client sends one (Codex 0.169 does not). */
  instructions: string | null;
}

export function readRequest(body: unknown): RequestShape {
  const b = isObj(body) ? body : {};
  const input = arr(b.input);
  let conversationStart = 0;
  while (conversationStart < input.length && isLeadingItem(input[conversationStart])) conversationStart++;
  const reasoning = isObj(b.reasoning) ? b.reasoning : {};
  return {
    body: b,
    input,
    conversationStart,
    model: str(b.model),
    reasoningEffort: str(reasoning.effort),
    serviceTier: str(b.service_tier),
    promptCacheKey: str(b.prompt_cache_key),
    instructions: typeof b.instructions === 'string' ? b.instructions : null,
  };
}

/** Which zone input item `index` belongs to. */
export function zoneOf(shape: RequestShape, index: number): InputZone {
  if (index >= shape.conversationStart) return 'conversation';
  const item = shape.input[index];
  return isObj(item) && item.type === 'additional_tools' ? 'tools' : 'instructions';
}

/** Text parts of a message (or any item with a `content` list), in order. */
export function contentTexts(item: Json): string[] {
  if (typeof item.content === 'string') return [item.content];
  return arr(item.content)
    .filter(isObj)
    .map((p) => (typeof p.text === 'string' ? p.text : typeof p.refusal === 'string' ? p.refusal : ''));
}
