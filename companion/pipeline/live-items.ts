/**
 * @module Live output of a streaming exchange, in the capture worker: reads the assembler's items
 * as they grow and turns them into bounded deltas (reasoning summary, tool-call arguments, custom
 * tool input, assistant text), the row preview, and an o200k estimate that counts every delta.
 */
import { countTextTokens } from '../analysis/tokenizer';
import type { ResponseAssembler } from '../capture/assembler';
import { isObj, type Json } from '../lib/json';
import type { LiveItemDelta, LiveItemKind, LivePreview } from '../protocol/live';

/**
 * Characters of one item's text the live feed carries. A 2 MB `apply_patch` argument would
 * otherwise travel to the main thread and to every subscriber while it streams; past this the
 * live text stops (marked truncated) and the stored record, fetched when it ends, has the rest.
 * The estimate still counts every character.
 */
export const LIVE_ITEM_CHARS = 16_384;
/** Items of one response the live feed follows; the rest are counted, not shown, until it ends. */
export const LIVE_ITEMS = 64;
const PREVIEW_CHARS = 160;
/**
 * The estimate counts new text in pieces of at most this many characters: o200k's merge step is
 * quadratic in the length of one unbroken run (64 KB of base64-like text takes seconds), and a
 * piece boundary costs at most a token of accuracy, which an estimate can spare.
 */
const ESTIMATE_PIECE = 2048;

/** An o200k estimate of `text`, cut at whitespace where it can be. */
export function estimateTokens(text: string): number {
  let n = 0;
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + ESTIMATE_PIECE);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > at + ESTIMATE_PIECE / 2) end = space;
    }
    // Output may mention `<|endoftext|>`: counted as plain text, never thrown on.
    n += countTextTokens(text.slice(at, end));
    at = end;
  }
  return n;
}

export interface LiveStep {
  items: LiveItemDelta[];
  preview: LivePreview | null;
  /** Characters streamed so far, all kinds. */
  chars: number;
  tokens: number;
}

const KINDS: Record<string, LiveItemKind> = {
  message: 'message',
  reasoning: 'reasoning',
  function_call: 'function_call',
  custom_tool_call: 'custom_tool_call',
};

const texts = (parts: unknown, key: 'text' | 'refusal'): string[] =>
  Array.isArray(parts) ? parts.flatMap((p) => (isObj(p) && typeof p[key] === 'string' ? [p[key] as string] : [])) : [];

/** The text an item streams: what its deltas append to, in the order they do. */
export function liveTextOf(item: Json): string {
  switch (item.type) {
    case 'message':
      return [...texts(item.content, 'text'), ...texts(item.content, 'refusal')].join('');
    case 'reasoning':
      // Summary parts arrive one after another; raw reasoning text (open models) follows them.
      return [...texts(item.summary, 'text'), ...texts(item.content, 'text')].join('\n\n');
    case 'function_call':
      return typeof item.arguments === 'string' ? item.arguments : '';
    case 'custom_tool_call':
      return typeof item.input === 'string' ? item.input : '';
    default:
      return '';
  }
}

function nameOf(item: Json): string | null {
  if (typeof item.name !== 'string') return null;
  const name = typeof item.namespace === 'string' ? `${item.namespace}.${item.name}` : item.name;
  return name.slice(0, 256);
}

interface Followed {
  /** Characters counted into the estimate. */
  seen: number;
  /** Characters sent (at most the cap). */
  sent: number;
  /** The truncation mark went out. */
  cut: boolean;
}

/** Follows one streaming response; `step()` says what is new since the previous step. */
export class LiveItems {
  private readonly followed = new Map<number, Followed>();
  private chars = 0;
  private tokens = 0;

  constructor(private readonly assembler: ResponseAssembler) {}

  step(): LiveStep {
    const items: LiveItemDelta[] = [];
    let preview: LivePreview | null = null;
    let position = 0;
    for (const [index, item] of this.assembler.streamedItems()) {
      const kind = KINDS[String(item.type)] ?? 'other';
      const text = liveTextOf(item);
      const name = nameOf(item);
      if (text || name) preview = previewOf(kind, name, text);
      const isNew = !this.followed.has(index);
      const f = this.followed.get(index) ?? { seen: 0, sent: 0, cut: false };
      this.followed.set(index, f);
      // The done event repeats what streamed: only a longer text is new.
      if (text.length > f.seen) {
        const fresh = text.slice(f.seen);
        this.tokens += estimateTokens(fresh);
        this.chars += fresh.length;
        f.seen = text.length;
      }
      if (position++ >= LIVE_ITEMS) continue;
      const upTo = Math.min(text.length, LIVE_ITEM_CHARS);
      const delta = upTo > f.sent ? text.slice(f.sent, upTo) : '';
      f.sent = Math.max(f.sent, upTo);
      const truncated = text.length > LIVE_ITEM_CHARS && !f.cut;
      if (truncated) f.cut = true;
      if (isNew || delta || truncated) items.push({ index, kind, name, delta, ...(truncated ? { truncated: true } : {}) });
    }
    return { items, preview, chars: this.chars, tokens: this.tokens };
  }
}

function previewOf(kind: LiveItemKind, name: string | null, text: string): LivePreview {
  // Reasoning shows its latest words, so the row visibly moves; text and calls show their start, as when stored.
  // Only a window of the text is flattened: a megabyte of arguments is not rescanned every step.
  const tail = kind === 'reasoning';
  const window = tail ? text.slice(-PREVIEW_CHARS * 4) : text.slice(0, PREVIEW_CHARS * 4);
  const flat = window.replace(/\s+/g, ' ').trim();
  const cut = tail ? flat.slice(-PREVIEW_CHARS) : flat.slice(0, PREVIEW_CHARS);
  return { kind, name, text: cut };
}
