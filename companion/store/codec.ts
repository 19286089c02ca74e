/**
 * @module How a record is split for storage so that storage grows with what is new:
 * each input item and each tool list becomes a content-addressed object, and a request's input
 * is stored as "the previous request of its thread, first `keep` items, plus these new items".
 * The previous request's own delta is copied alongside, so one corrupt record does not break
 * the records after it.
 */
import type { ExchangeRecord, ExchangeSummary } from '../protocol/exchange';
import { SUMMARY_KEYS } from '../protocol/summary-keys';
import { hashJson } from './hash';
import { isObj, jsonText, type Json } from '../lib/json';

export interface Delta {
  /** Exchange id whose input this one extends, or null. */
  base: string | null;
  keep: number;
  add: string[];
}

export interface InputRef extends Delta {
  /** A copy of the base's own delta (redundancy against a corrupt base record). */
  prev: Delta | null;
}

/** What is stored (deflated) for one exchange, besides its summary. */
export interface StoredPayload {
  /** The record without its summary fields; input/tools replaced by markers. */
  rest: Record<string, unknown>;
  input: InputRef | null;
  tools: string | null;
  /** WebSocket only: the literal message's input items. */
  wsInput: string[] | null;
}

const INPUT_MARKER = '$codex-devtools:input';
const TOOLS_MARKER = '$codex-devtools:tools';

export interface HashedItems {
  hashes: string[];
  /** hash → JSON text, for storing the items not stored yet. */
  json: Map<string, string>;
}

/**
 * Lists hashed already, by identity: a request's input is hashed when the exchange begins and
 * again when its record is stored, and captured bodies are never changed in between.
 */
const hashed = new WeakMap<readonly unknown[], HashedItems>();

/** Hashes items; returns their hashes and the JSON text of each (for storing new objects). */
export function hashItems(items: readonly unknown[]): HashedItems {
  const known = hashed.get(items);
  if (known) return known;
  const json = new Map<string, string>();
  const hashes = items.map((item) => {
    const text = JSON.stringify(item) ?? 'null';
    const h = hashJson(text);
    json.set(h, text);
    return h;
  });
  const out = { hashes, json };
  hashed.set(items, out);
  return out;
}

/** Tool lists' hashes, by identity: hashed when the exchange begins and again when its record is stored. */
const listHashes = new WeakMap<readonly unknown[], string>();

/** A tool list's hash and JSON text (`jsonText`'s, kept once per list): it is stored once, as one object. */
export function hashToolList(tools: readonly unknown[]): { hash: string; text: string } {
  const text = jsonText(tools);
  let hash = listHashes.get(tools);
  if (hash === undefined) listHashes.set(tools, (hash = hashJson(text)));
  return { hash, text };
}

/** A record's input items by hash (none for a record without an input list). */
export function itemsByHash(record: ExchangeRecord): Map<string, unknown> {
  const body = record.request.body;
  const input = isObj(body) && Array.isArray(body.input) ? (body.input as unknown[]) : [];
  const { hashes } = hashItems(input);
  return new Map(hashes.map((h, i) => [h, input[i]]));
}

/** Length of the common prefix of two hash lists. */
export function commonPrefix(a: readonly (string | null)[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

export function summaryOf(record: ExchangeRecord): ExchangeSummary {
  const s: Json = {};
  for (const k of SUMMARY_KEYS) s[k] = record[k];
  return s as ExchangeSummary;
}

export interface Split {
  summary: ExchangeSummary;
  payload: Omit<StoredPayload, 'input'>;
  /** Input item hashes in order, or null when the body has no input list. */
  inputHashes: string[] | null;
  /** Objects to store: hash → JSON text. */
  objects: Map<string, string>;
}

/** Splits a record into summary, payload and objects. The input delta is set by the caller. */
export function splitRecord(record: ExchangeRecord): Split {
  const summary = summaryOf(record);
  const rest: Json = {};
  for (const [k, v] of Object.entries(record)) if (!(SUMMARY_KEYS as readonly string[]).includes(k)) rest[k] = v;
  const objects = new Map<string, string>();
  let inputHashes: string[] | null = null;
  let tools: string | null = null;
  let wsInput: string[] | null = null;
  const request = { ...(rest.request as Json) };
  rest.request = request;
  if (isObj(request.body)) {
    const body = { ...request.body };
    if (Array.isArray(body.input)) {
      const h = hashItems(body.input);
      inputHashes = h.hashes;
      for (const [k, v] of h.json) objects.set(k, v);
      body.input = INPUT_MARKER;
    }
    if (Array.isArray(body.tools)) {
      const list = hashToolList(body.tools);
      tools = list.hash;
      objects.set(tools, list.text);
      body.tools = TOOLS_MARKER;
    }
    request.body = body;
  }
  if (isObj(request.websocketMessage) && Array.isArray(request.websocketMessage.input)) {
    const msg = { ...request.websocketMessage };
    const h = hashItems(msg.input as unknown[]);
    wsInput = h.hashes;
    for (const [k, v] of h.json) objects.set(k, v);
    msg.input = INPUT_MARKER;
    if (Array.isArray(msg.tools) && tools) {
      if (hashToolList(msg.tools).hash === tools) msg.tools = TOOLS_MARKER;
    }
    request.websocketMessage = msg;
  }
  return { summary, payload: { rest, tools, wsInput }, inputHashes, objects };
}

/** Placeholder for an item that cannot be read back. */
export function unreadableItem(hash: string | null, reason: string): Json {
  return { type: 'codex_devtools.unreadable', hash, reason };
}

/** Rebuilds the record from its stored parts; `resolve` turns hashes into values. */
export function joinRecord(
  summary: ExchangeSummary,
  payload: StoredPayload,
  parts: { input: unknown[] | null; tools: unknown; wsInput: unknown[] | null },
): ExchangeRecord {
  const rest = structuredClone(payload.rest);
  const request = rest.request as Json;
  if (isObj(request.body)) {
    if (request.body.input === INPUT_MARKER && parts.input) request.body.input = parts.input;
    if (request.body.tools === TOOLS_MARKER && payload.tools) request.body.tools = parts.tools;
  }
  if (isObj(request.websocketMessage)) {
    if (request.websocketMessage.input === INPUT_MARKER && parts.wsInput) request.websocketMessage.input = parts.wsInput;
    if (request.websocketMessage.tools === TOOLS_MARKER && payload.tools) request.websocketMessage.tools = parts.tools;
  }
  return { ...(rest as object), ...summary } as ExchangeRecord;
}
