/**
 * @module A plain-text rendering of everything in a request that reaches the model, cut into
 * blocks, each assigned to one context section. Every block starts with a character that is
 * neither whitespace nor `/` and ends with a newline: at such a boundary the o200k
 * pre-tokenizer always splits, so block token counts add up exactly to the count of the whole
 * rendering (context.ts explains why).
 */
import type { SectionGroup, ToolRef } from '../protocol/analysis';
import { arr, isObj, jsonText, str, type Json } from '../lib/json';
import { readRequest, type RequestShape } from './request-shape';
import { SECTION, developerSection, groupOf, opaquePart, userSection } from '../protocol/section-names';
import { toolsFromList, type ToolEntry } from './tool-catalog';

/**
 * The section of one message part, the one rule the token estimates and the served layout share:
 * leading developer/system messages by their markers (base instructions, permissions, …), later
 * ones as developer messages; user messages by their markers (AGENTS.md, environment context).
 */
export function messagePartSection(role: string | null, leading: boolean, text: string): string {
  if (role === 'developer' || role === 'system') return leading ? developerSection(text) : SECTION.developer;
  if (role === 'user') return userSection(text);
  return role === 'assistant' ? SECTION.assistant : SECTION.other;
}

export interface Block {
  section: string;
  group: SectionGroup;
  tool: ToolRef | null;
  text: string;
  /** Bytes the tokenizer cannot see (encrypted content, images), shown beside the estimate. */
  opaqueBytes: number;
  /** What the block belongs to, for counting items: `item:<index>`, `tool:<key>`, `field:<name>`. */
  unit: string;
}

/** Ends `text` with a newline and makes sure it starts cleanly (behind a `text` line otherwise). */
function finish(text: string): string {
  const body = text.endsWith('\n') ? text : text + '\n';
  return /^[^\s/]/.test(body) ? body : `text\n${body}`;
}

/** `label` stands in for the role/type framing the model sees around a message or tool. */
const labelled = (label: string, body: string): string => finish(`${label}\n${body}`);

function toolBlock(t: ToolEntry): Block {
  const base = { section: `tool:${t.ref.key}`, group: 'tools' as const, tool: t.ref, opaqueBytes: 0, unit: `tool:${t.ref.key}` };
  if (t.nestedText !== null) return { ...base, text: finish(t.nestedText) };
  const d = t.definition;
  const parts: string[] = [];
  if (t.namespaceDescription) parts.push(t.namespaceDescription);
  if (t.type === 'function' || t.type === 'custom') {
    const description = t.execPreamble ?? t.description;
    if (description) parts.push(description);
    if (d.parameters !== undefined) parts.push(`parameters ${JSON.stringify(d.parameters)}`);
    if (d.format !== undefined) parts.push(`format ${JSON.stringify(d.format)}`);
  } else {
    parts.push(JSON.stringify(d));
  }
  return { ...base, text: labelled(`tool ${t.ref.key}`, parts.join('\n')) };
}

/** Rendered `body.tools` lists by their text, the latest few (a main agent's, its sub-agents'). */
const renderedLists = new Map<string, Block[]>();
const RENDERED_LISTS = 8;

/**
 * The blocks of `body.tools`. Codex resends the same list every turn, and rendering its 20 KB
 * again (each tool's parameters stringified, joined) was a fifth of what the analysis allocated:
 * a list's blocks are kept by its text, the one the store hashes it by, computed once. Each call
 * gets its own copies of the blocks; their texts are shared, as strings may be.
 */
function listedToolBlocks(tools: unknown): Block[] {
  if (!Array.isArray(tools)) return []; // as toolsFromList reads anything but a list
  const text = jsonText(tools);
  let blocks = renderedLists.get(text);
  if (!blocks) {
    blocks = toolsFromList(tools, 'tools').map(toolBlock);
    renderedLists.set(text, blocks);
    if (renderedLists.size > RENDERED_LISTS) renderedLists.delete(renderedLists.keys().next().value as string);
  }
  return blocks.map((b) => ({ ...b, tool: b.tool && { ...b.tool } }));
}

/** Texts of an output/content list (string outputs stay as they are). */
function outputText(output: unknown): { text: string; opaque: number } {
  if (typeof output === 'string') return { text: output, opaque: 0 };
  let opaque = 0;
  const texts = arr(output).map((p) => {
    if (!isObj(p)) return '';
    const o = opaquePart(p);
    if (o) opaque += o.bytes;
    return o ? o.text : typeof p.text === 'string' ? p.text : JSON.stringify(p);
  });
  return { text: texts.join('\n'), opaque };
}

function messageBlocks(item: Json, index: number, shape: RequestShape): Block[] {
  const role = str(item.role) ?? 'message';
  const leading = index < shape.conversationStart;
  // The Responses API also accepts a plain string as a message's content.
  const parts = typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : arr(item.content);
  return parts.map((raw) => {
    const part = isObj(raw) ? raw : {};
    const opaque = opaquePart(part);
    const text = opaque ? opaque.text : typeof part.text === 'string' ? part.text : typeof part.refusal === 'string' ? part.refusal : '';
    const section = messagePartSection(role, leading, text);
    return {
      section,
      group: groupOf(section),
      tool: null,
      text: labelled(role, text),
      opaqueBytes: opaque?.bytes ?? 0,
      unit: `item:${index}`,
    };
  });
}

function itemBlocks(item: unknown, index: number, shape: RequestShape): Block[] {
  if (!isObj(item)) return [];
  const unit = `item:${index}`;
  const one = (section: string, label: string, body: string, opaqueBytes = 0): Block[] => [
    { section, group: groupOf(section), tool: null, text: labelled(label, body), opaqueBytes, unit },
  ];
  const callName = () => [str(item.namespace), str(item.name)].filter(Boolean).join('.') || 'tool';
  switch (item.type) {
    case 'message':
      return messageBlocks(item, index, shape);
    case 'additional_tools':
      return toolsFromList(item.tools, 'additional_tools', index).map(toolBlock);
    case 'tool_search_output':
      return toolsFromList(item.tools, 'tool_search_output', index).map(toolBlock);
    case 'function_call':
      return one(SECTION.toolCalls, `call ${callName()}`, String(item.arguments ?? ''));
    case 'custom_tool_call':
      return one(SECTION.toolCalls, `call ${callName()}`, String(item.input ?? ''));
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output': {
      const o = outputText(item.output);
      return one(SECTION.toolOutputs, 'output', o.text, o.opaque);
    }
    case 'reasoning': {
      const texts = [...arr(item.summary), ...arr(item.content)].filter(isObj).map((p) => String(p.text ?? ''));
      const encrypted = typeof item.encrypted_content === 'string' ? item.encrypted_content.length : 0;
      return one(SECTION.reasoning, 'reasoning', [...texts, ...(encrypted ? ['[encrypted]'] : [])].join('\n'), encrypted);
    }
    case 'compaction': {
      const encrypted = typeof item.encrypted_content === 'string' ? item.encrypted_content.length : 0;
      return one(SECTION.compactionSummary, 'compaction', '[encrypted]', encrypted);
    }
    case 'compaction_trigger':
      return one(SECTION.compactionPrompt, 'compaction trigger', '');
    case 'agent_message': {
      const o = outputText(item.content);
      return one(SECTION.agentMessages, `agent ${str(item.author) ?? '?'} to ${str(item.recipient) ?? '?'}`, o.text, o.opaque);
    }
    default: {
      const { type, ...rest } = item;
      const isCall = typeof type === 'string' && type.endsWith('_call');
      const section = isCall
        ? SECTION.toolCalls
        : typeof type === 'string' && type.endsWith('_output')
          ? SECTION.toolOutputs
          : SECTION.other;
      return one(section, String(type ?? 'item'), JSON.stringify(rest));
    }
  }
}

/** All blocks of a request, in request order. */
export function renderRequest(body: unknown): Block[] {
  const shape = readRequest(body);
  const blocks: Block[] = [];
  if (shape.instructions !== null)
    blocks.push({
      section: SECTION.instructions,
      group: 'instructions',
      tool: null,
      text: labelled('instructions', shape.instructions),
      opaqueBytes: 0,
      unit: 'field:instructions',
    });
  blocks.push(...listedToolBlocks(shape.body.tools));
  shape.input.forEach((item, i) => blocks.push(...itemBlocks(item, i, shape)));
  const format = isObj(shape.body.text) ? shape.body.text.format : undefined;
  if (isObj(format) && format.type !== 'text')
    blocks.push({
      section: SECTION.outputSchema,
      group: 'other',
      tool: null,
      text: labelled('output schema', JSON.stringify(format)),
      opaqueBytes: 0,
      unit: 'field:text.format',
    });
  return blocks;
}
