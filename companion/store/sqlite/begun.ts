/**
 * @module The request of an exchange that began and has not ended, kept in its row until the
 * record replaces it (a companion killed meanwhile leaves it readable). Codex resends the whole
 * history and its tool list on every turn, and the thread's previous exchange stored them
 * already: the begun row refers to them and holds only the new items. A long session's turn then
 * writes its last few items at its start, not megabytes.
 */
import type { CapturedRequest } from '../../protocol/exchange';
import { isObj } from '../../lib/json';
import { commonPrefix, hashItems, hashToolList } from '../codec';
import { readTransient, transientJson } from './pack';

/** The keys of the references in a begun request; earlier builds wrote the request whole, without them. */
const INPUT_FROM = '$codex-devtools:inputFrom';
const TOOLS_FROM = '$codex-devtools:toolsFrom';

interface InputFrom {
  /** The exchange whose stored input the request's input extends. */
  base: string;
  /** How many of its first items the request resends before its own. */
  keep: number;
}

type BegunRequest = CapturedRequest & { [INPUT_FROM]?: InputFrom; [TOOLS_FROM]?: string };

/** What the store knows already, for `begunJson`. */
export interface Stored {
  /** The thread's latest stored exchange and its input hashes, if any. */
  base: { id: string; input: readonly (string | null)[] } | null;
  /** Whether an item (or tool list) of this hash is stored. */
  has(hash: string): boolean;
}

/** How a begun request's references are read back. */
export interface Resolve {
  /** The first `keep` input items of `base` (one no longer stored reads as unreadable). */
  baseItems(base: string, keep: number): unknown[];
  /** The stored item (or tool list) of this hash. */
  item(hash: string): unknown;
}

/** The begun row's request: the tool list and the input items already stored are referred to. */
export function begunJson(request: CapturedRequest, stored: Stored): string {
  const body = request.body;
  if (!isObj(body)) return transientJson(request);
  const begun: BegunRequest = { ...request };
  const out: Record<string, unknown> = { ...body };
  if (Array.isArray(body.input) && stored.base) {
    const keep = commonPrefix(stored.base.input, hashItems(body.input).hashes);
    if (keep > 0) {
      out.input = body.input.slice(keep);
      begun[INPUT_FROM] = { base: stored.base.id, keep };
    }
  }
  if (Array.isArray(body.tools)) {
    const hash = hashToolList(body.tools).hash;
    if (stored.has(hash)) {
      out.tools = TOOLS_FROM; // in its place: the body reads back in Codex's key order
      begun[TOOLS_FROM] = hash;
    }
  }
  begun.body = out;
  return transientJson(begun);
}

/** The request a begun row holds, whole again. */
export function readBegun(raw: string | Buffer, resolve: Resolve): CapturedRequest {
  const begun = readTransient<BegunRequest>(raw);
  const { [INPUT_FROM]: from, [TOOLS_FROM]: tools, ...request } = begun;
  if (!from && !tools) return request;
  const body: Record<string, unknown> = { ...(request.body as object) };
  if (from) body.input = [...resolve.baseItems(from.base, from.keep), ...(Array.isArray(body.input) ? body.input : [])];
  if (tools) body.tools = resolve.item(tools);
  return { ...request, body };
}
