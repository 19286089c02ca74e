/** Response output items (`response.output`) as view models by type; unknown types stay whole, as JSON. */
import { asArray, asString, isObject, prettyArguments, utf8Bytes } from './json';

export type OutputView =
  | { kind: 'message'; role: string; parts: { kind: 'text' | 'refusal' | 'other'; text: string }[]; item: unknown }
  | { kind: 'reasoning'; summary: string[]; content: string[]; encryptedBytes: number | null; item: unknown }
  | { kind: 'function_call'; namespace: string | null; name: string; callId: string | null; arguments: string; item: unknown }
  | { kind: 'custom_tool_call'; namespace: string | null; name: string; callId: string | null; input: string; item: unknown }
  | { kind: 'web_search_call'; status: string | null; action: string | null; query: string | null; item: unknown }
  | { kind: 'compaction'; encryptedBytes: number | null; item: unknown }
  | { kind: 'unknown'; type: string; item: unknown };

const encryptedSize = (v: unknown) => (typeof v === 'string' ? utf8Bytes(v) : null);

const texts = (list: unknown) =>
  asArray(list)
    .filter(isObject)
    .map((p) => String(p.text ?? ''));

export function outputView(item: unknown): OutputView {
  if (!isObject(item)) return { kind: 'unknown', type: typeof item, item };
  const type = asString(item.type) ?? 'unknown';
  switch (type) {
    case 'message':
      return {
        kind: 'message',
        role: asString(item.role) ?? 'assistant',
        parts: asArray(item.content).map((p) =>
          isObject(p) && typeof p.text === 'string'
            ? { kind: 'text' as const, text: p.text }
            : isObject(p) && typeof p.refusal === 'string'
              ? { kind: 'refusal' as const, text: p.refusal }
              : { kind: 'other' as const, text: JSON.stringify(p) },
        ),
        item,
      };
    case 'reasoning':
      return {
        kind: 'reasoning',
        summary: texts(item.summary),
        content: texts(item.content),
        encryptedBytes: encryptedSize(item.encrypted_content),
        item,
      };
    case 'function_call':
      return {
        kind: 'function_call',
        namespace: asString(item.namespace),
        name: asString(item.name) ?? '?',
        callId: asString(item.call_id),
        arguments: prettyArguments(item.arguments),
        item,
      };
    case 'custom_tool_call':
      return {
        kind: 'custom_tool_call',
        namespace: asString(item.namespace),
        name: asString(item.name) ?? '?',
        callId: asString(item.call_id),
        input: asString(item.input) ?? '',
        item,
      };
    case 'web_search_call': {
      const action = isObject(item.action) ? item.action : {};
      return { kind: 'web_search_call', status: asString(item.status), action: asString(action.type), query: asString(action.query), item };
    }
    case 'compaction':
      return { kind: 'compaction', encryptedBytes: encryptedSize(item.encrypted_content), item };
    default:
      return { kind: 'unknown', type, item };
  }
}
