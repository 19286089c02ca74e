/**
 * @module How a record becomes rows, and back. `codec.ts` already splits off the summary and
 * turns input items and tool lists into content-addressed objects; here the response's output
 * items become stored-once items too (so what the assistant wrote is
 * indexed once, however many later requests resend it), and the rest is deflated.
 */
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { ExchangeRecord, ExchangeSummary } from '../../protocol/exchange';
import { isObj, type Json } from '../../lib/json';
import { joinRecord, splitRecord } from '../codec';
import { hashJson } from '../hash';
import { sessionContext, type SessionContext } from '../../analysis/session-context';
import { itemText } from './item-text';

const OUTPUT_MARKER = '$codex-devtools:output';
/** Item bodies at least this long (as JSON) are stored deflated. */
const COMPRESS_FROM = 512;
/** Payloads above this (bytes of JSON) are deflated on the thread pool, never stalling the caller's thread. */
const LARGE_PAYLOAD = 1024 * 1024;

/** An item as a record carries it: its JSON, deflated and indexed only if the store lacks it. */
export interface NewItem {
  json: string;
}

export interface ItemRow {
  body: Buffer;
  packed: 0 | 1;
  text: string | null;
}

export interface StoredBody {
  rest: Record<string, unknown>;
  tools: string | null;
  wsInput: string[] | null;
  output: string[] | null;
}

export interface PackedRecord {
  summary: ExchangeSummary;
  payload: Buffer;
  analysis: Buffer | null;
  /** What the record's analysis was computed with (null without analysis, or before prices had versions). */
  versions: { analysis: number | null; prices: string | null };
  /** Full input item hashes in order (the caller stores them as a delta), or null. */
  inputHashes: string[] | null;
  /** Hashes this exchange brings besides its input: tool list, WebSocket input, output. */
  extra: string[];
  items: Map<string, NewItem>;
  context: SessionContext;
}

export function deflate(json: string): Buffer {
  return zlib.deflateRawSync(json);
}
/**
 * For rows that live only while an exchange streams (its begun request, its event batches): they
 * are deleted when it ends, so speed beats size, and they are kept as JSON text. Deflating them,
 * even at level 1, was the largest single cost of starting an exchange (about 0.6 ms of a
 * typical request's, 14 ms of a 1.5 MB one's).
 */
export function transientJson(value: unknown): string {
  return JSON.stringify(value);
}
/** A transient row: JSON text, or the deflated blob earlier builds wrote (a store a crash left with one still reads). */
export function readTransient<T>(value: string | Buffer): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : inflateJson<T>(value);
}
const deflateAsync = promisify(zlib.deflateRaw);
export function inflateJson<T>(buf: Buffer): T {
  return JSON.parse(zlib.inflateRawSync(buf).toString('utf8')) as T;
}

/** The row of an item not stored yet (most items of a request are: Codex resends them). */
export function itemRow(json: string): ItemRow {
  const text = itemText(JSON.parse(json) as unknown);
  return json.length >= COMPRESS_FROM ? { body: deflate(json), packed: 1, text } : { body: Buffer.from(json), packed: 0, text };
}

export function readItem(body: Buffer, packed: number): unknown {
  return JSON.parse((packed ? zlib.inflateRawSync(body) : body).toString('utf8')) as unknown;
}

export async function packRecord(record: ExchangeRecord): Promise<PackedRecord> {
  const { analysis, ...withoutAnalysis } = record;
  const split = splitRecord(withoutAnalysis as ExchangeRecord);
  const items = new Map<string, NewItem>();
  for (const [h, json] of split.objects) items.set(h, { json });
  const extra = [...(split.payload.tools ? [split.payload.tools] : []), ...(split.payload.wsInput ?? [])];
  const rest = split.payload.rest as Json;
  let output: string[] | null = null;
  if (isObj(rest.response) && Array.isArray(rest.response.output)) {
    output = rest.response.output.map((item) => {
      const json = JSON.stringify(item) ?? 'null';
      const h = hashJson(json);
      if (!items.has(h)) items.set(h, { json });
      return h;
    });
    rest.response = { ...rest.response, output: OUTPUT_MARKER };
    extra.push(...output);
  }
  const body: StoredBody = { rest, tools: split.payload.tools, wsInput: split.payload.wsInput, output };
  const json = JSON.stringify(body);
  const payload = json.length > LARGE_PAYLOAD ? await deflateAsync(json) : deflate(json);
  const input = isObj(record.request.body) && Array.isArray(record.request.body.input) ? record.request.body.input : [];
  return {
    summary: split.summary,
    payload,
    analysis: analysis ? deflate(JSON.stringify(analysis)) : null,
    versions: { analysis: analysis?.version ?? null, prices: analysis?.pricesVersion ?? null },
    inputHashes: split.inputHashes,
    extra,
    items,
    context: sessionContext(input),
  };
}

/** Rebuilds the record; `resolve` gives each hash's item (or an unreadable placeholder). */
export function unpackRecord(
  summary: ExchangeSummary,
  body: StoredBody,
  parts: { input: unknown[] | null; resolve: (hashes: readonly (string | null)[]) => unknown[] },
): ExchangeRecord {
  const record = joinRecord(
    summary,
    { rest: body.rest, input: null, tools: body.tools, wsInput: body.wsInput },
    {
      input: parts.input,
      tools: body.tools ? parts.resolve([body.tools])[0] : null,
      wsInput: body.wsInput ? parts.resolve(body.wsInput) : null,
    },
  );
  const response = record.response as unknown as Json;
  if (body.output && response.output === OUTPUT_MARKER) response.output = parts.resolve(body.output) as Json[];
  return record;
}
