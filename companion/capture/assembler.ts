/**
 * @module Response assembly: the stream of Responses events in, the output items, terminal state,
 * usage and error out. Mirrors what Codex reacts to (codex-protocol.md §3.2): `output_item.done`
 * is authoritative per item, the terminal event's `output` is authoritative for the response.
 */
import type { ExchangeError, OutputItem } from '../protocol/exchange';
import type { Usage } from '../protocol/usage';
import { parseUsage } from './usage';
import { isObj, type Json } from '../lib/json';

export type Terminal = 'completed' | 'incomplete' | 'failed' | null;

/** How much of a plain-text error event becomes the error message (the event log keeps all of it). */
const ERROR_TEXT_CHARS = 500;

/** An output item has a type; one without (Codex cannot parse it either) is left to the event log. */
const isItem = (v: unknown): v is OutputItem => isObj(v) && typeof v.type === 'string';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** Text to append: a delta is a string; anything else (a number, an object) adds nothing rather than throwing. */
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export class ResponseAssembler {
  responseId: string | null = null;
  model: string | null = null;
  terminal: Terminal = null;
  usage: Usage | null = null;
  error: ExchangeError | null = null;
  /** Items by `output_index`, as built from added/delta/done events. */
  private readonly items = new Map<number, Json>();
  private finalOutput: OutputItem[] | null = null;

  /** Applies one event's parsed data. Unknown types are kept in the event log only. */
  apply(type: string, data: unknown): void {
    // Codex stops reading at the terminal event: nothing after it changes the response.
    if (this.terminal) return;
    // An error whose data is text rather than an object: the text is the upstream's message.
    if (type === 'error' && typeof data === 'string') {
      this.error = {
        code: 'error_event',
        message: data.slice(0, ERROR_TEXT_CHARS) || 'the upstream sent an error event',
        upstreamCode: null,
      };
      return;
    }
    if (!isObj(data)) return;
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        this.noteResponse(data.response);
        return;
      case 'response.output_item.added':
      case 'response.output_item.done':
        // A deep copy: deltas mutate the item, and the event log must keep what arrived.
        if (isItem(data.item)) this.items.set(this.index(data), structuredClone(data.item));
        return;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return this.appendContent(data, type === 'response.refusal.delta' ? 'refusal' : 'output_text');
      case 'response.reasoning_summary_text.delta':
        return this.appendSummary(data);
      case 'response.reasoning_text.delta':
        return this.appendReasoningText(data);
      case 'response.function_call_arguments.delta':
        return this.appendField(data, 'arguments');
      case 'response.custom_tool_call_input.delta':
        return this.appendField(data, 'input');
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        return this.finish(type, data);
      case 'error':
        this.error = {
          code: 'error_event',
          // An empty message says nothing: the next source, then a description, stands in for it.
          message: str(data.message) || str((data.error as Json | undefined)?.message) || 'the upstream sent an error event',
          upstreamCode: str(data.code) ?? str((data.error as Json | undefined)?.code) ?? str((data.error as Json | undefined)?.type),
        };
        return;
      default:
        return;
    }
  }

  /** The output as Codex ends up with it: the terminal event's list when it has one, else what streamed. */
  output(): OutputItem[] {
    if (this.finalOutput && this.finalOutput.length > 0) return this.finalOutput;
    return [...this.items.entries()].sort((a, b) => a[0] - b[0]).map(([, item]) => item as OutputItem);
  }

  /** The assistant's text so far (for previews and live progress). */
  text(): string {
    let out = '';
    for (const item of this.output()) {
      if (item.type !== 'message' || !Array.isArray(item.content)) continue;
      for (const part of item.content as unknown[]) if (isObj(part) && typeof part.text === 'string') out += part.text;
    }
    return out;
  }

  /** The items as they stream, by `output_index` (live progress reads their text as it grows). */
  streamedItems(): [number, Json][] {
    return [...this.items.entries()].sort((a, b) => a[0] - b[0]);
  }

  private index(data: Json): number {
    return typeof data.output_index === 'number' ? data.output_index : this.items.size;
  }

  private noteResponse(r: unknown): void {
    if (!isObj(r)) return;
    this.responseId = str(r.id) ?? this.responseId;
    this.model = str(r.model) ?? this.model;
  }

  /** Finds the item an event refers to, by `output_index` or else by `item_id`. */
  private target(data: Json): Json | undefined {
    if (typeof data.output_index === 'number') return this.items.get(data.output_index);
    const id = str(data.item_id);
    if (id) for (const item of this.items.values()) if (item.id === id) return item;
    return undefined;
  }

  private appendContent(data: Json, partType: 'output_text' | 'refusal'): void {
    const item = this.target(data);
    if (!item) return;
    const content = Array.isArray(item.content) ? (item.content as Json[]) : (item.content = []);
    const ci = typeof data.content_index === 'number' ? data.content_index : 0;
    const key = partType === 'refusal' ? 'refusal' : 'text';
    const part = (content[ci] ??=
      partType === 'refusal' ? { type: 'refusal', refusal: '' } : { type: 'output_text', text: '', annotations: [] });
    part[key] = text(part[key]) + text(data.delta);
  }

  private appendSummary(data: Json): void {
    const item = this.target(data);
    if (!item) return;
    const summary = Array.isArray(item.summary) ? (item.summary as Json[]) : (item.summary = []);
    const si = typeof data.summary_index === 'number' ? data.summary_index : 0;
    const part = (summary[si] ??= { type: 'summary_text', text: '' });
    part.text = text(part.text) + text(data.delta);
  }

  private appendReasoningText(data: Json): void {
    const item = this.target(data);
    if (!item) return;
    const content = Array.isArray(item.content) ? (item.content as Json[]) : (item.content = []);
    const ci = typeof data.content_index === 'number' ? data.content_index : 0;
    const part = (content[ci] ??= { type: 'reasoning_text', text: '' });
    part.text = text(part.text) + text(data.delta);
  }

  private appendField(data: Json, field: 'arguments' | 'input'): void {
    const item = this.target(data);
    if (item) item[field] = text(item[field]) + text(data.delta);
  }

  private finish(type: string, data: Json): void {
    const r = isObj(data.response) ? data.response : {};
    this.noteResponse(r);
    this.terminal = type === 'response.completed' ? 'completed' : type === 'response.incomplete' ? 'incomplete' : 'failed';
    if (Array.isArray(r.output)) this.finalOutput = r.output.filter(isItem).map((i) => structuredClone(i));
    this.usage = parseUsage(r.usage);
    // A bare error event before it is ignored by Codex over HTTP (codex-protocol.md §3.2): the response completed.
    if (this.terminal === 'completed') this.error = null;
    if (this.terminal === 'failed') {
      const e = isObj(r.error) ? r.error : {};
      this.error = {
        code: 'response_failed',
        message: str(e.message) || 'the upstream reported response.failed',
        upstreamCode: str(e.code) ?? str(e.type),
      };
    } else if (this.terminal === 'incomplete') {
      const reason = isObj(r.incomplete_details) ? str(r.incomplete_details.reason) : null;
      this.error = {
        code: 'response_incomplete',
        message: `Incomplete response returned, reason: ${reason ?? 'unknown'}`,
        upstreamCode: reason,
      };
    }
  }
}
