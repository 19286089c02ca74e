/**
 * @module Prompt, response and tool text in the GenAI conventions' message form
 * (`gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.system_instructions`). Used only
 * with `--otlp-content`: by default no text of a conversation leaves the machine.
 */
type Json = Record<string, unknown>;
type Part = Record<string, unknown>;
interface Message {
  role: string;
  parts: Part[];
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Past this many characters an attribute is cut: a backend refuses or truncates huge values anyway. */
const MAX_CHARS = 256 * 1024;

function partsOf(content: unknown): Part[] {
  if (typeof content === 'string') return [{ type: 'text', content }];
  if (!Array.isArray(content)) return [];
  return content.filter(isObj).map((p) => {
    const t = text(p.text);
    return t !== null ? { type: 'text', content: t } : { type: String(p.type ?? 'unknown') };
  });
}

function toolName(item: Json): string {
  const name = String(item.name ?? '');
  return typeof item.namespace === 'string' && item.namespace ? `${item.namespace}.${name}` : name;
}

function messageOf(item: Json): Message | null {
  switch (item.type) {
    case 'message':
    case undefined: {
      const role = String(item.role ?? 'user');
      return { role: role === 'developer' ? 'system' : role, parts: partsOf(item.content) };
    }
    case 'function_call':
    case 'custom_tool_call':
      return {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: item.call_id ?? null, name: toolName(item), arguments: item.arguments ?? item.input ?? null }],
      };
    case 'function_call_output':
    case 'custom_tool_call_output':
      return { role: 'tool', parts: [{ type: 'tool_call_response', id: item.call_id ?? null, response: item.output ?? null }] };
    case 'reasoning': {
      const summary = Array.isArray(item.summary) ? item.summary.filter(isObj).map((s) => text(s.text) ?? '') : [];
      return summary.some(Boolean) ? { role: 'assistant', parts: [{ type: 'reasoning', content: summary.join('\n') }] } : null;
    }
    default:
      return { role: 'unknown', parts: [{ type: String(item.type) }] };
  }
}

function encode(value: unknown): string {
  const s = JSON.stringify(value);
  return s.length > MAX_CHARS ? s.slice(0, MAX_CHARS) : s;
}

export function inputMessages(body: unknown): string | null {
  const input = isObj(body) ? body.input : null;
  if (typeof input === 'string') return encode([{ role: 'user', parts: [{ type: 'text', content: input }] }]);
  if (!Array.isArray(input)) return null;
  return encode(input.filter(isObj).map(messageOf).filter(Boolean));
}

export function systemInstructions(body: unknown): string | null {
  const instructions = isObj(body) ? text(body.instructions) : null;
  return instructions ? encode([{ type: 'text', content: instructions }]) : null;
}

export function outputMessages(output: readonly Json[], finishReason: string | null): string | null {
  if (!output.length) return null;
  return encode(
    output
      .map(messageOf)
      .filter((m): m is Message => m !== null)
      .map((m) => ({ ...m, finish_reason: finishReason })),
  );
}
