/**
 * The Instructions and Input of a request as entries, each in the context section the companion's
 * analysis counts it under (so token estimates join by name). Sections are recognised by item
 * type and role and by the markers Codex opens its own blocks with, never by guessing at prose.
 */
import { SECTION, developerSection, groupOf, isLeadingItem, opaquePart, userSection, type SectionGroup } from '../../companion/protocol';
import { asArray, asString, isObject, prettyJson, type JsonObject } from './json';

export interface RequestEntry {
  /** Position in `input`; -1 for the `instructions` field. */
  index: number;
  /** Content part of a message, else null. */
  part: number | null;
  type: string;
  role: string | null;
  /** Analysis section name: `instructions`, `user instructions`, `tool outputs`, … */
  section: string;
  /** Never `tools`: tool catalogs are shown as tools, not as entries. */
  group: SectionGroup;
  label: string;
  /** Readable text (shown as text, never as HTML), or null when the item is best read as JSON. */
  text: string | null;
  /** Bytes the tokenizer cannot see (encrypted reasoning or compaction, images, files), as the analysis counts them. */
  opaqueBytes: number;
  item: unknown;
}

function firstLine(text: string, max = 80): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function messageEntries(item: JsonObject, index: number, leading: boolean): RequestEntry[] {
  const role = asString(item.role) ?? 'message';
  const parts = typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : asArray(item.content);
  return parts.map((raw, part) => {
    const p = isObject(raw) ? raw : {};
    const opaque = opaquePart(p);
    // The analysis reads the section from this text too (its fallback is '' where this one shows
    // JSON, which opens with `{` and so never with a section marker).
    const text = opaque?.text ?? asString(p.text) ?? asString(p.refusal) ?? prettyJson(p);
    const section =
      role === 'developer' || role === 'system'
        ? leading
          ? developerSection(text)
          : SECTION.developer
        : role === 'user'
          ? userSection(text)
          : role === 'assistant'
            ? SECTION.assistant
            : SECTION.other;
    return {
      index,
      part,
      type: 'message',
      role,
      section,
      group: groupOf(section),
      label: `${role}: ${firstLine(text)}`,
      text,
      opaqueBytes: opaque?.bytes ?? 0,
      item,
    };
  });
}

const callName = (item: JsonObject) => [asString(item.namespace), asString(item.name)].filter(Boolean).join('.') || 'tool';

/** Readable text of an output or content list, and the size of its parts the tokenizer cannot see. */
function outputText(output: unknown): { text: string; opaque: number } {
  if (typeof output === 'string') return { text: output, opaque: 0 };
  let opaque = 0;
  const texts = asArray(output).map((raw) => {
    const p = isObject(raw) ? raw : {};
    const o = opaquePart(p);
    opaque += o?.bytes ?? 0;
    return o?.text ?? asString(p.text) ?? prettyJson(p);
  });
  return { text: texts.join('\n'), opaque };
}

function itemEntry(item: JsonObject, index: number): RequestEntry {
  const type = asString(item.type) ?? 'unknown';
  const base = { index, part: null, type, role: asString(item.role), opaqueBytes: 0, item };
  const one = (section: string, label: string, text: string | null, opaqueBytes = 0): RequestEntry => ({
    ...base,
    section,
    group: groupOf(section),
    label,
    text,
    opaqueBytes,
  });
  const encrypted = typeof item.encrypted_content === 'string' ? item.encrypted_content.length : 0;
  switch (type) {
    case 'function_call':
      return one(SECTION.toolCalls, `call ${callName(item)}`, asString(item.arguments));
    case 'custom_tool_call':
      return one(SECTION.toolCalls, `call ${callName(item)}`, asString(item.input));
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output': {
      const o = outputText(item.output);
      return one(SECTION.toolOutputs, `output ${asString(item.call_id) ?? ''}`.trim(), o.text, o.opaque);
    }
    case 'reasoning': {
      const texts = [...asArray(item.summary), ...asArray(item.content)].filter(isObject).map((p) => String(p.text ?? ''));
      return one(SECTION.reasoning, 'reasoning (replayed)', texts.join('\n\n') || null, encrypted);
    }
    case 'compaction':
      return one(SECTION.compactionSummary, 'compaction (encrypted summary)', null, encrypted);
    case 'compaction_trigger':
      return one(SECTION.compactionPrompt, 'compaction trigger', null);
    case 'agent_message': {
      const o = outputText(item.content);
      return one(SECTION.agentMessages, `agent ${asString(item.author) ?? '?'} → ${asString(item.recipient) ?? '?'}`, o.text, o.opaque);
    }
    case 'tool_search_output':
      return one(SECTION.toolOutputs, 'tool_search output (deferred tools loaded here)', null);
    default: {
      const section = type.endsWith('_call') ? SECTION.toolCalls : type.endsWith('_output') ? SECTION.toolOutputs : SECTION.other;
      return one(section, type, null);
    }
  }
}

/** Every entry of the request but its tool catalogs, in request order. */
export function requestEntries(body: unknown): RequestEntry[] {
  const b = isObject(body) ? body : {};
  const out: RequestEntry[] = [];
  if (typeof b.instructions === 'string')
    out.push({
      index: -1,
      part: null,
      type: 'instructions',
      role: null,
      section: SECTION.instructions,
      group: 'instructions',
      label: 'instructions field',
      text: b.instructions,
      opaqueBytes: 0,
      item: b.instructions,
    });
  const input = asArray(b.input);
  let leading = true;
  input.forEach((item, i) => {
    leading = leading && isLeadingItem(item);
    if (!isObject(item) || item.type === 'additional_tools') return;
    if (item.type === 'message') out.push(...messageEntries(item, i, leading));
    else out.push(itemEntry(item, i));
  });
  return out;
}
