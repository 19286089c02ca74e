/**
 * Every tool and parameter name found in the real captured Codex requests under tests/fixtures
 * (request bodies, WebSocket frames, tool_search_output items, code-mode `exec` declarations and
 * tool-sets.json), keyed by namespace + name. The concept-doc tests hold the docs to this list.
 * Test-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseExecDeclarations } from './exec-declarations';
import { splitDeclaredName } from '../../companion/protocol';
import { isMcpTool, toolKey, type ToolRef } from '../../extension/lib/tool-keys';

export type Placement = 'tools' | 'additional_tools' | 'tool_search_output' | 'exec_nested' | 'exec_runtime';

export interface InventoryTool {
  key: string;
  namespace: string | null;
  name: string;
  /** A tool from an MCP server (the user's own), not one of Codex's. */
  mcp: boolean;
  /** Argument names from the JSON schema or the code-mode declaration. */
  params: string[];
  /** Settings of hosted tools (`web_search`, `tool_search`) sent beside the type. */
  options: string[];
  placements: Placement[];
  sources: string[];
}

interface Draft {
  ref: ToolRef;
  mcp: boolean;
  params: Set<string>;
  options: Set<string>;
  placements: Set<Placement>;
  sources: Set<string>;
}

export const FIXTURES_DIR = path.resolve('tests/fixtures');

class Inventory {
  private readonly tools = new Map<string, Draft>();

  add(ref: ToolRef, where: { placement: Placement; source: string; mcpServers: string[] }, params: string[] = [], options: string[] = []) {
    const key = toolKey(ref);
    let d = this.tools.get(key);
    if (!d) {
      d = { ref, mcp: false, params: new Set(), options: new Set(), placements: new Set(), sources: new Set() };
      this.tools.set(key, d);
    }
    d.mcp ||= isMcpTool(ref, where.mcpServers);
    params.forEach((p) => d.params.add(p));
    options.forEach((o) => d.options.add(o));
    d.placements.add(where.placement);
    d.sources.add(where.source);
  }

  result(): InventoryTool[] {
    return [...this.tools.entries()]
      .map(([key, d]) => ({
        key,
        namespace: toolKeyNamespace(key, d.ref),
        name: d.ref.name,
        mcp: d.mcp,
        params: [...d.params].sort(),
        options: [...d.options].sort(),
        placements: [...d.placements].sort(),
        sources: [...d.sources].sort(),
      }))
      .sort((a, b) => a.key.localeCompare(b.key));
  }
}

function toolKeyNamespace(key: string, ref: ToolRef): string | null {
  return key === ref.name ? null : key.slice(0, key.length - ref.name.length - 1);
}

type Json = any;

const HOSTED_FIELDS_THAT_ARE_NOT_SETTINGS = new Set(['type', 'name', 'description', 'parameters', 'format', 'strict', 'defer_loading']);

/** Walks one `tools` array as Codex sends it: functions, custom (freeform) tools, hosted tools, namespaces. */
function addToolList(
  inv: Inventory,
  list: Json,
  placement: Placement,
  source: string,
  mcpServers: string[],
  namespace: string | null = null,
) {
  if (!Array.isArray(list)) return;
  for (const t of list) {
    if (!t || typeof t !== 'object') continue;
    const where = { placement, source, mcpServers };
    if (t.type === 'namespace') {
      addToolList(inv, t.tools, placement, source, mcpServers, t.name);
    } else if (t.type === 'function' || t.type === 'custom') {
      const params = Object.keys(t.parameters?.properties ?? {});
      inv.add({ namespace, name: t.name }, where, params);
      if (t.type === 'custom' && typeof t.description === 'string') addExecNested(inv, t.description, source, mcpServers);
    } else if (typeof t.type === 'string') {
      // Hosted tools (`web_search`, `tool_search`) are named by their type.
      const params = Object.keys(t.parameters?.properties ?? {});
      const options = Object.keys(t).filter((k) => !HOSTED_FIELDS_THAT_ARE_NOT_SETTINGS.has(k));
      inv.add({ namespace, name: t.type }, where, params, options);
    }
  }
}

function addExecNested(inv: Inventory, description: string, source: string, mcpServers: string[]) {
  for (const d of parseExecDeclarations(description)) {
    inv.add(splitDeclaredName(d.name), { placement: 'exec_nested', source, mcpServers }, d.params);
  }
}

/** Any object with `model` and an `input` array is a request body (HTTP body, WebSocket `response.create`). */
function addRequestBodies(inv: Inventory, node: Json, source: string, mcpServers: string[]) {
  if (Array.isArray(node)) {
    node.forEach((n) => addRequestBodies(inv, n, source, mcpServers));
    return;
  }
  if (!node || typeof node !== 'object') return;
  if (typeof node.model === 'string' && Array.isArray(node.input)) {
    addToolList(inv, node.tools, 'tools', source, mcpServers);
    for (const item of node.input) {
      if (item?.type === 'additional_tools') addToolList(inv, item.tools, 'additional_tools', source, mcpServers);
      if (item?.type === 'tool_search_output') addToolList(inv, item.tools, 'tool_search_output', source, mcpServers);
    }
    return;
  }
  Object.values(node).forEach((v) => addRequestBodies(inv, v, source, mcpServers));
}

/** `[mcp_servers.<name>]` in any config text of the capture. */
function mcpServersIn(text: string): string[] {
  return [...text.matchAll(/\[mcp_servers\.([\w-]+)\]/g)].map((m) => m[1]);
}

/** tool-sets.json keeps names and parameter names only, already split into nested and runtime tools. */
function addToolSets(inv: Inventory, sets: Record<string, Json>, source: string) {
  for (const [config, entry] of Object.entries(sets)) {
    const servers = mcpServersIn(String(entry.config ?? ''));
    const src = `${source}#${config}`;
    const lists = [entry.tools, ...(entry.other_requests ?? []).map((o: Json) => o.tools)];
    for (const list of lists) {
      if (!Array.isArray(list)) continue; // "same as first request"
      for (const t of list) {
        if (!t || typeof t !== 'object') continue;
        const placement: Placement = String(t.sent_in ?? '').includes('tool_search_output')
          ? 'tool_search_output'
          : String(t.sent_in ?? '').includes('additional_tools')
            ? 'additional_tools'
            : 'tools';
        const where = { placement, source: src, mcpServers: servers };
        inv.add({ namespace: t.namespace ?? null, name: t.name ?? t.type }, where, t.parameters ?? [], Object.keys(t.options ?? {}));
        for (const n of t.nested_tools ?? []) {
          inv.add(splitDeclaredName(n.name), { ...where, placement: 'exec_nested' }, n.parameters ?? []);
        }
      }
    }
    for (const name of entry.code_mode_ALL_TOOLS_at_runtime ?? []) {
      inv.add(splitDeclaredName(name), { placement: 'exec_runtime', source: src, mcpServers: servers });
    }
  }
}

function jsonFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return jsonFiles(p);
    return e.name.endsWith('.json') ? [p] : [];
  });
}

/** Collects the inventory from every JSON capture under `dir` (tests/fixtures by default). */
export function collectToolInventory(dir: string = FIXTURES_DIR): InventoryTool[] {
  const inv = new Inventory();
  for (const file of jsonFiles(dir)) {
    const source = path.relative(dir, file);
    const text = fs.readFileSync(file, 'utf8');
    const json = JSON.parse(text);
    if (path.basename(file) === 'tool-sets.json') addToolSets(inv, json, source);
    else addRequestBodies(inv, json, source, mcpServersIn(text));
  }
  return inv.result();
}
