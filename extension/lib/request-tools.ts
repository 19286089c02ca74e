/**
 * Every tool a request declares, wherever Codex puts it (architecture.md, "Request sections"):
 * `tools` (namespace groups expanded), `additional_tools` input items (code-mode models), tools
 * nested in the code-mode `exec` description, and deferred tools in `tool_search_output` items.
 */
import { analysisToolKey, type ToolPlacement } from '../../companion/protocol';
import type { LiveTool } from '@/components/docs/sheet-api';
import { execPreamble, parseExecDeclarations } from './exec-declarations';
import { asArray, asString, isObject, type JsonObject } from './json';
import { toolKey } from './tool-keys';

export interface ToolView {
  /** The analysis' key (`exec_command`, `collaboration.spawn_agent`, `exec/clock.curr_time`): joins token estimates. */
  key: string;
  namespace: string | null;
  name: string;
  placement: ToolPlacement;
  /** `function`, `custom`, `web_search`, … or `nested` for exec declarations. */
  type: string;
  description: string | null;
  /** Parameters schema, custom grammar, or the whole definition for hosted tools. */
  schema: unknown;
  definition: unknown;
  namespaceDescription: string | null;
  /** Input item that carries the tool, for `additional_tools` and `tool_search_output`. */
  itemIndex: number | null;
  /** Tools declared inside `exec`'s description. */
  nested: ToolView[];
}

function nestedTools(description: string, itemIndex: number | null): ToolView[] {
  return parseExecDeclarations(description).map((d) => ({
    key: `exec/${analysisToolKey(d.namespace, d.name)}`,
    namespace: d.namespace,
    name: d.name,
    placement: 'exec' as const,
    type: 'nested',
    description: d.section,
    schema: d.declaration ?? undefined,
    definition: { type: 'nested', name: d.declaredName, declaration: d.declaration },
    namespaceDescription: null,
    itemIndex,
    nested: [],
  }));
}

function toolView(
  t: JsonObject,
  placement: ToolPlacement,
  namespace: string | null,
  nsDescription: string | null,
  itemIndex: number | null,
): ToolView {
  const type = asString(t.type) ?? 'unknown';
  const name = asString(t.name) ?? type;
  const ns = namespace ?? asString(t.namespace);
  const description = asString(t.description);
  const isExec = type === 'custom' && name === 'exec' && description !== null;
  const plain = type === 'function' || type === 'custom';
  return {
    key: analysisToolKey(ns, name),
    namespace: ns,
    name,
    placement,
    type,
    description: isExec ? execPreamble(description) : description,
    schema: plain ? (t.parameters ?? t.format) : t,
    definition: t,
    namespaceDescription: nsDescription,
    itemIndex,
    nested: isExec ? nestedTools(description, itemIndex) : [],
  };
}

/** A tools array as tool views, namespace groups expanded into their members. */
export function toolsFromList(list: unknown, placement: ToolPlacement, itemIndex: number | null = null): ToolView[] {
  const out: ToolView[] = [];
  for (const t of asArray(list)) {
    if (!isObject(t)) continue;
    if (t.type === 'namespace' && Array.isArray(t.tools)) {
      const ns = asString(t.name);
      const nsDescription = asString(t.description) || null;
      for (const inner of t.tools) if (isObject(inner)) out.push(toolView(inner, placement, ns, nsDescription, itemIndex));
    } else out.push(toolView(t, placement, null, null, itemIndex));
  }
  return out;
}

/** All tools of a request body, in the order they appear. */
export function requestTools(body: unknown): ToolView[] {
  const b = isObject(body) ? body : {};
  const tools = toolsFromList(b.tools, 'tools');
  asArray(b.input).forEach((item, i) => {
    if (!isObject(item)) return;
    if (item.type === 'additional_tools') tools.push(...toolsFromList(item.tools, 'additional_tools', i));
    else if (item.type === 'tool_search_output') tools.push(...toolsFromList(item.tools, 'tool_search_output', i));
  });
  return tools;
}

/** The tool as the doc sheet shows it: the description and schema Codex sent. */
export function liveToolOf(t: ToolView): LiveTool {
  const description = [t.namespaceDescription, t.description].filter((d): d is string => !!d).join('\n\n');
  return { ...(description ? { description } : {}), ...(t.schema !== undefined ? { schema: t.schema } : {}) };
}

/** Every tool of a request by its doc key (`collaboration.spawn_agent`), nested tools included. */
export function liveToolIndex(tools: ToolView[]): Map<string, LiveTool> {
  const index = new Map<string, LiveTool>();
  const add = (t: ToolView) => {
    const k = toolKey({ namespace: t.namespace, name: t.name });
    if (!index.has(k)) index.set(k, liveToolOf(t));
    t.nested.forEach(add);
  };
  tools.forEach(add);
  return index;
}
