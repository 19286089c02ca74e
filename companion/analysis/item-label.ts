/** @module Short labels and identities of input items, for the diff and for cache-miss evidence. */
import type { ItemRef } from '../protocol/analysis';
import { canonicalJson, changedKeys, clip, isObj, str, type Json } from '../lib/json';
import { contentTexts } from './request-shape';
import { phrase, type Phrase } from './texts';

/**
 * `user: run echo hi`, `exec_command({"cmd":"echo hi"})` (captured content, as they are), or
 * `output call_1: hi`, `reasoning: …` (worded by the companion, with a code).
 */
function itemLabel(item: unknown): Phrase | string {
  if (!isObj(item)) return String(item);
  const name = [str(item.namespace), str(item.name)].filter(Boolean).join('.');
  switch (item.type) {
    case 'message':
      return `${str(item.role) ?? 'message'}: ${clip(contentTexts(item).join(' '), 60)}`;
    case 'function_call':
      return `${name}(${clip(String(item.arguments ?? ''), 40)})`;
    case 'custom_tool_call':
      return `${name}: ${clip(String(item.input ?? ''), 40)}`;
    case 'function_call_output':
    case 'custom_tool_call_output':
      return phrase('item.output', {
        callId: str(item.call_id) ?? '',
        text: clip(typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? ''), 40),
      });
    case 'reasoning':
      return phrase('item.reasoning', {
        text: clip(
          (Array.isArray(item.summary) ? item.summary : [])
            .filter(isObj)
            .map((s) => String(s.text ?? ''))
            .join(' '),
          50,
        ),
      });
    case 'agent_message':
      return phrase('item.agentMessage', { author: str(item.author) ?? '?', recipient: str(item.recipient) ?? '?' });
    default:
      return String(item.type ?? 'item');
  }
}

export function itemRef(item: unknown, index: number): ItemRef {
  const o: Json = isObj(item) ? item : {};
  const label = itemLabel(item);
  const worded = typeof label === 'string' ? { label, labelCode: null } : { label: label.text, labelCode: label.code };
  return { index, type: str(o.type) ?? 'unknown', role: str(o.role), ...worded };
}

/** Same item, possibly edited: same type and role, and the same call id / id where both have one. */
export function sameItem(a: unknown, b: unknown): boolean {
  if (!isObj(a) || !isObj(b) || a.type !== b.type || (a.role ?? null) !== (b.role ?? null)) return false;
  for (const k of ['call_id', 'id'] as const) if (str(a[k]) && str(b[k]) && a[k] !== b[k]) return false;
  return true;
}

/** Identity of an output item as Codex echoes it back: type plus call id (or id). */
export function echoKey(item: unknown): string | null {
  if (!isObj(item)) return null;
  const id = str(item.call_id) ?? str(item.id);
  return id ? `${String(item.type)}:${id}` : null;
}

/**
 * Item fields that never reach the model: Codex's item ids (regenerated when it rebuilds the
 * initial context after a compaction), the echoed `status`, and its metadata passthrough.
 * Comparisons for the cache ignore them, so a new id on the same text is not a change.
 */
const NOT_PROMPT = new Set(['id', 'status', 'internal_chat_message_metadata_passthrough']);

/**
 * Keys computed already, by item: an item is compared as the current request's and again as the
 * next one's previous (the same object when it is kept or resent), and captured items never change.
 */
const promptKeys = new WeakMap<object, string>();

/** Canonical JSON of what an item contributes to the prompt. */
export function promptKey(item: unknown): string {
  if (!isObj(item)) return canonicalJson(item);
  const known = promptKeys.get(item);
  if (known !== undefined) return known;
  const kept: Json = {};
  for (const [k, v] of Object.entries(item)) if (!NOT_PROMPT.has(k)) kept[k] = v;
  const key = canonicalJson(kept);
  promptKeys.set(item, key);
  return key;
}

/** Top-level fields of two items that differ in what reaches the model. */
export function changedPromptFields(a: Json, b: Json): string[] {
  return changedKeys(a, b).filter((k) => !NOT_PROMPT.has(k));
}
