/**
 * A compact, comparable form of a request layout (tools with their nested tools, entries): every
 * field the panel shows, long texts as SHA-256 digests so snapshots stay small. The snapshots in
 * tests/fixtures/layout/ were taken from the panel's own request parsers before the companion
 * took them over, so a test comparing against them checks that the served layout shows the same.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const digest = (v: unknown): string | null =>
  v === null || v === undefined
    ? null
    : createHash('sha256')
        .update(typeof v === 'string' ? v : JSON.stringify(v))
        .digest('hex')
        .slice(0, 16);

export interface ToolLike {
  key: string;
  namespace: string | null;
  name: string;
  placement: string;
  type: string;
  description: string | null;
  schema?: unknown;
  namespaceDescription: string | null;
  itemIndex: number | null;
  nested: ToolLike[];
}

export interface EntryLike {
  index: number;
  part: number | null;
  type: string;
  role: string | null;
  section: string;
  group: string;
  label: string;
  text: string | null;
  opaqueBytes: number;
}

export const toolSnapshot = (t: ToolLike): Record<string, unknown> => ({
  key: t.key,
  namespace: t.namespace,
  name: t.name,
  placement: t.placement,
  type: t.type,
  description: digest(t.description),
  schema: digest(t.schema),
  namespaceDescription: digest(t.namespaceDescription),
  itemIndex: t.itemIndex,
  nested: t.nested.map(toolSnapshot),
});

/** The fields the snapshots were taken of; the label's code (newer than them) is checked on its own. */
export const entrySnapshot = ({ labelCode: _code, ...e }: EntryLike & { labelCode?: unknown }): Record<string, unknown> => ({
  ...e,
  text: digest(e.text),
});

/** The request bodies the layout snapshots are taken of: code-mode, namespaced, fallback model, deferred tools. */
export const LAYOUT_CASES: Record<string, () => unknown> = {
  'code-mode': () => requestBody('gpt-6.1-sol-default.json'),
  'code-mode-mcp-tool-search': () => requestBody('gpt-6.1-sol-mcp-tool-search.json'),
  namespaced: () => requestBody('gpt-5-codex-multi-agent-v2.json'),
  'fallback-model': () => requestBody('gpt-5-codex-default.json'),
  'deferred-tools': () => requestBody('gpt-5.5-tool-search.json'),
  'fallback-tool-call': () => unelidedBody('fallback-tool-call-2.json'),
  'codemode-tool-call': () => unelidedBody('codemode-tool-call-2.json'),
  'local-compaction': () => unelidedBody('fallback-compaction-local-3.json'),
};

/** The last request of a full capture (the one with the most input). */
function requestBody(file: string): unknown {
  const fx = JSON.parse(fs.readFileSync(path.resolve('tests/fixtures/requests', file), 'utf8')) as { requests: { body: unknown }[] };
  return fx.requests.at(-1)!.body;
}

function unelidedBody(file: string): unknown {
  return (JSON.parse(fs.readFileSync(path.resolve('tests/fixtures/unelided', file), 'utf8')) as { request: { body: unknown } }).request
    .body;
}

export const snapshotFile = (name: string): string => path.resolve('tests/fixtures/layout', `${name}.json`);
