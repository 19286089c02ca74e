/**
 * @module The request's tools as the panel lists them (protocol/layout.ts): the tool catalog's
 * entries (tool-catalog.ts, the same reading the token estimates use) with what the model reads
 * about each one, and exec's nested tools under exec.
 */
import type { LayoutTool } from '../protocol/layout';
import { docToolKey } from '../protocol/tool-names';
import { isObj, type Json } from '../lib/json';
import { execPreamble, parseExecDeclarations, type NestedDeclaration } from './exec-declarations';
import { requestTools, type ToolEntry } from './tool-catalog';

const PLAIN_TYPES = new Set(['function', 'custom']);

function nestedTool(parent: ToolEntry, e: ToolEntry, d: NestedDeclaration | undefined): LayoutTool {
  return {
    key: e.ref.key,
    docKey: docToolKey(e.ref),
    namespace: e.ref.namespace,
    name: e.ref.name,
    placement: 'exec',
    kind: e.ref.kind,
    type: 'nested',
    description: d?.section ?? null,
    schema: d?.declaration ?? undefined,
    namespaceDescription: null,
    itemIndex: parent.itemIndex,
    nested: [],
  };
}

function tool(e: ToolEntry, nested: ToolEntry[]): LayoutTool {
  const t = e.definition;
  // The code-mode exec tool (tool-catalog gives it a preamble): its description holds the nested tools.
  const isExec = e.execPreamble !== null && e.description !== null;
  const declarations = isExec ? parseExecDeclarations(e.description!) : [];
  const byName = new Map(declarations.map((d) => [d.declaredName, d]));
  return {
    key: e.ref.key,
    docKey: docToolKey(e.ref),
    namespace: e.ref.namespace,
    name: e.ref.name,
    placement: e.ref.placement,
    kind: e.ref.kind,
    type: e.type,
    description: isExec ? execPreamble(e.description!) : e.description,
    schema: PLAIN_TYPES.has(e.type) ? (t.parameters ?? t.format) : t,
    namespaceDescription: e.groupDescription,
    itemIndex: e.itemIndex,
    nested: nested.map((n) => nestedTool(e, n, byName.get(String((n.definition as Json).name)))),
  };
}

/** Every tool of a request body, in the order they appear, nested exec tools under exec. */
export function layoutTools(body: unknown): LayoutTool[] {
  const out: LayoutTool[] = [];
  const entries = requestTools(isObj(body) ? body : {});
  for (let i = 0; i < entries.length; i++) {
    const nested: ToolEntry[] = [];
    while (entries[i + 1 + nested.length]?.ref.placement === 'exec') nested.push(entries[i + 1 + nested.length]);
    out.push(tool(entries[i], nested));
    i += nested.length;
  }
  return out;
}
