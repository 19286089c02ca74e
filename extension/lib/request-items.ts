/**
 * The Instructions and Input of a request as entries, each in the context section the companion's
 * analysis counts it under (so token estimates join by name). Sections are recognised by item
 * type and role and by the markers Codex opens its own blocks with, never by guessing at prose.
 */
import { asArray, asString, isObject, prettyJson, utf8Bytes, type JsonObject } from './json';

export type EntryGroup = 'instructions' | 'input' | 'other';

export interface RequestEntry {
  /** Position in `input`; -1 for the `instructions` field. */
  index: number;
  /** Content part of a message, else null. */
  part: number | null;
  type: string;
  role: string | null;
  /** Analysis section name: `instructions`, `user instructions`, `tool outputs`, … */
  section: string;
  group: EntryGroup;
  label: string;
  /** Readable text (shown as text, never as HTML), or null when the item is best read as JSON. */
  text: string | null;
  /** Bytes the tokenizer cannot see (encrypted reasoning or compaction, images). */
  opaqueBytes: number;
  item: unknown;
}

/** Leading developer text: base instructions, the permissions block, the skills list. */
export function developerSection(text: string): string {
  const t = text.trimStart();
  if (t.startsWith('<skills_instructions>')) return 'skills';
  if (t.startsWith('<permissions instructions>')) return 'permissions';
  return 'instructions';
}

/** User-role text Codex writes itself (AGENTS.md, environment, compaction, agent notes); the rest is the user's. */
export function userSection(text: string): string {
  const t = text.trimStart();
  if (t.startsWith('# AGENTS.md instructions for') || t.startsWith('<user_instructions>')) return 'user instructions';
  if (t.startsWith('<environment_context>')) return 'environment context';
  if (t.startsWith('Another language model started to solve this problem')) return 'compaction summary';
  if (t.startsWith('You are performing a CONTEXT CHECKPOINT COMPACTION')) return 'compaction prompt';
  if (t.startsWith('<subagent_notification>')) return 'agent messages';
  return 'conversation: user';
}

const OTHER_SECTIONS = new Set(['other', 'output schema']);
const INSTRUCTION_SECTIONS = new Set(['instructions', 'permissions', 'skills']);

export function groupOfSection(section: string): EntryGroup {
  if (INSTRUCTION_SECTIONS.has(section)) return 'instructions';
  return OTHER_SECTIONS.has(section) ? 'other' : 'input';
}

const isLeading = (item: unknown) =>
  isObject(item) &&
  (item.type === 'additional_tools' || (item.type === 'message' && (item.role === 'developer' || item.role === 'system')));

function firstLine(text: string, max = 80): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function messageEntries(item: JsonObject, index: number, leading: boolean): RequestEntry[] {
  const role = asString(item.role) ?? 'message';
  const parts = typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : asArray(item.content);
  return parts.map((raw, part) => {
    const p = isObject(raw) ? raw : {};
    const opaque = typeof p.image_url === 'string' ? p.image_url.length : 0;
    const text = asString(p.text) ?? asString(p.refusal) ?? (opaque ? '[image]' : prettyJson(p));
    const section =
      role === 'developer' || role === 'system'
        ? leading
          ? developerSection(text)
          : 'conversation: developer'
        : role === 'user'
          ? userSection(text)
          : role === 'assistant'
            ? 'conversation: assistant'
            : 'other';
    return {
      index,
      part,
      type: 'message',
      role,
      section,
      group: groupOfSection(section),
      label: `${role}: ${firstLine(text)}`,
      text,
      opaqueBytes: opaque,
      item,
    };
  });
}

const callName = (item: JsonObject) => [asString(item.namespace), asString(item.name)].filter(Boolean).join('.') || 'tool';

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  return asArray(output)
    .map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : prettyJson(p)))
    .join('\n');
}

function itemEntry(item: JsonObject, index: number): RequestEntry {
  const type = asString(item.type) ?? 'unknown';
  const base = { index, part: null, type, role: asString(item.role), opaqueBytes: 0, item };
  const one = (section: string, label: string, text: string | null, opaqueBytes = 0): RequestEntry => ({
    ...base,
    section,
    group: groupOfSection(section),
    label,
    text,
    opaqueBytes,
  });
  const encrypted = typeof item.encrypted_content === 'string' ? utf8Bytes(item.encrypted_content) : 0;
  switch (type) {
    case 'function_call':
      return one('tool calls', `call ${callName(item)}`, asString(item.arguments));
    case 'custom_tool_call':
      return one('tool calls', `call ${callName(item)}`, asString(item.input));
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output':
      return one('tool outputs', `output ${asString(item.call_id) ?? ''}`.trim(), outputText(item.output));
    case 'reasoning': {
      const texts = [...asArray(item.summary), ...asArray(item.content)].filter(isObject).map((p) => String(p.text ?? ''));
      return one('reasoning', 'reasoning (replayed)', texts.join('\n\n') || null, encrypted);
    }
    case 'compaction':
      return one('compaction summary', 'compaction (encrypted summary)', null, encrypted);
    case 'compaction_trigger':
      return one('compaction prompt', 'compaction trigger', null);
    case 'agent_message':
      return one('agent messages', `agent ${asString(item.author) ?? '?'} → ${asString(item.recipient) ?? '?'}`, outputText(item.content));
    case 'tool_search_output':
      return one('tool outputs', 'tool_search output (deferred tools loaded here)', null);
    default: {
      const section = type.endsWith('_call') ? 'tool calls' : type.endsWith('_output') ? 'tool outputs' : 'other';
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
      section: 'instructions',
      group: 'instructions',
      label: 'instructions field',
      text: b.instructions,
      opaqueBytes: 0,
      item: b.instructions,
    });
  const input = asArray(b.input);
  let leading = true;
  input.forEach((item, i) => {
    leading = leading && isLeading(item);
    if (!isObject(item) || item.type === 'additional_tools') return;
    if (item.type === 'message') out.push(...messageEntries(item, i, leading));
    else out.push(itemEntry(item, i));
  });
  return out;
}
