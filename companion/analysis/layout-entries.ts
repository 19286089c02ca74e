/**
 * @module The Instructions and Input of a request as the panel lists them (protocol/layout.ts),
 * each entry in the context section the token estimates count it under. Sections are recognised
 * by item type and role and by the markers Codex opens its own blocks with, never by guessing at
 * prose; "leading" is the request shape's rule (request-shape.ts), as for the estimates.
 */
import type { LayoutEntry } from '../protocol/layout';
import { SECTION, groupOf, opaquePart } from '../protocol/section-names';
import { readRequest } from './request-shape';
import { messagePartSection } from './render';
import { phrase, type Phrase } from './texts';

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asString = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Pretty JSON for a part with no text; never throws. */
function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value); // not serialisable: show what String() gives rather than nothing
  }
}

type RequestEntry = LayoutEntry;

const labelled = (p: Phrase) => ({ label: p.text, labelCode: p.code });

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
    const section = messagePartSection(role, leading, text);
    return {
      index,
      part,
      type: 'message',
      role,
      section,
      group: groupOf(section),
      // Captured content (the role and the text's first line): shown as it is.
      label: `${role}: ${firstLine(text)}`,
      labelCode: null,
      text,
      opaqueBytes: opaque?.bytes ?? 0,
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
  const base = { index, part: null, type, role: asString(item.role), opaqueBytes: 0 };
  const one = (section: string, label: Phrase | string, text: string | null, opaqueBytes = 0): RequestEntry => ({
    ...base,
    section,
    group: groupOf(section),
    label: typeof label === 'string' ? label : label.text,
    labelCode: typeof label === 'string' ? null : label.code,
    text,
    opaqueBytes,
  });
  const encrypted = typeof item.encrypted_content === 'string' ? item.encrypted_content.length : 0;
  switch (type) {
    case 'function_call':
      return one(SECTION.toolCalls, phrase('entry.call', { name: callName(item) }), asString(item.arguments));
    case 'custom_tool_call':
      return one(SECTION.toolCalls, phrase('entry.call', { name: callName(item) }), asString(item.input));
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output': {
      const o = outputText(item.output);
      const callId = asString(item.call_id);
      return one(SECTION.toolOutputs, callId ? phrase('entry.output', { callId }) : phrase('entry.outputBare'), o.text, o.opaque);
    }
    case 'reasoning': {
      const texts = [...asArray(item.summary), ...asArray(item.content)].filter(isObject).map((p) => String(p.text ?? ''));
      return one(SECTION.reasoning, phrase('entry.reasoning'), texts.join('\n\n') || null, encrypted);
    }
    case 'compaction':
      return one(SECTION.compactionSummary, phrase('entry.compaction'), null, encrypted);
    case 'compaction_trigger':
      return one(SECTION.compactionPrompt, phrase('entry.compactionTrigger'), null);
    case 'agent_message': {
      const o = outputText(item.content);
      const names = { author: asString(item.author) ?? '?', recipient: asString(item.recipient) ?? '?' };
      return one(SECTION.agentMessages, phrase('entry.agent', names), o.text, o.opaque);
    }
    case 'tool_search_output':
      return one(SECTION.toolOutputs, phrase('entry.toolSearch'), null);
    default: {
      const section = type.endsWith('_call') ? SECTION.toolCalls : type.endsWith('_output') ? SECTION.toolOutputs : SECTION.other;
      return one(section, type, null);
    }
  }
}

/** Every entry of the request but its tool catalogs, in request order. */
export function layoutEntries(body: unknown): LayoutEntry[] {
  const shape = readRequest(body);
  const out: RequestEntry[] = [];
  if (shape.instructions !== null)
    out.push({
      index: -1,
      part: null,
      type: 'instructions',
      role: null,
      section: SECTION.instructions,
      group: 'instructions',
      ...labelled(phrase('entry.instructionsField')),
      text: shape.instructions,
      opaqueBytes: 0,
    });
  shape.input.forEach((item, i) => {
    if (!isObject(item) || item.type === 'additional_tools') return;
    if (item.type === 'message') out.push(...messageEntries(item, i, i < shape.conversationStart));
    else out.push(itemEntry(item, i));
  });
  return out;
}
