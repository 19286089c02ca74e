/**
 * Builders for the Responses API events the fake upstream plays, modelled on the events OpenAI
 * sends and Codex 0.169.0 accepted (see tests/fixtures/codex-0.169). Test-only.
 */

export type SseEvent = { type: string } & Record<string, unknown>;

export interface UsageSpec {
  input: number;
  cached?: number;
  output: number;
  reasoning?: number;
  cacheWrite?: number;
}

/** The wire usage object: cached and cache-write inside input, reasoning inside output. */
export function usage(u: UsageSpec): Record<string, unknown> {
  const inputDetails: Record<string, number> = { cached_tokens: u.cached ?? 0 };
  if (u.cacheWrite !== undefined) inputDetails.cache_write_tokens = u.cacheWrite;
  return {
    input_tokens: u.input,
    input_tokens_details: inputDetails,
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
    total_tokens: u.input + u.output,
  };
}

function responseObject(id: string, model: string, status: string, output: unknown[], extra: Record<string, unknown> = {}) {
  return { id, object: 'response', status, model, output, ...extra };
}

export interface ResponseSpec {
  id?: string;
  model?: string;
  usage?: UsageSpec | null;
  /** How the response ends; `completed` by default. */
  end?: 'completed' | 'incomplete' | 'failed' | 'none';
  incompleteReason?: string;
  failedError?: { code: string; message: string };
}

/** Wraps output-item events in created/in_progress and a terminal event carrying the final output and usage. */
export function response(items: { events: SseEvent[]; item: Record<string, unknown> }[], spec: ResponseSpec = {}): SseEvent[] {
  const id = spec.id ?? 'resp_001';
  const model = spec.model ?? 'gpt-5-codex';
  const events: SseEvent[] = [
    { type: 'response.created', response: responseObject(id, model, 'in_progress', []) },
    { type: 'response.in_progress', response: responseObject(id, model, 'in_progress', []) },
  ];
  items.forEach((it, index) => {
    for (const e of it.events) events.push({ ...e, output_index: index });
  });
  const output = items.map((it) => it.item);
  const u = spec.usage === null ? {} : { usage: usage(spec.usage ?? { input: 5000, cached: 4096, output: 12 }) };
  switch (spec.end ?? 'completed') {
    case 'completed':
      events.push({ type: 'response.completed', response: responseObject(id, model, 'completed', output, u) });
      break;
    case 'incomplete':
      events.push({
        type: 'response.incomplete',
        response: responseObject(id, model, 'incomplete', output, {
          ...u,
          incomplete_details: { reason: spec.incompleteReason ?? 'max_output_tokens' },
        }),
      });
      break;
    case 'failed':
      events.push({
        type: 'response.failed',
        response: responseObject(id, model, 'failed', output, {
          ...u,
          error: spec.failedError ?? { code: 'server_error', message: 'The model failed (scripted).' },
        }),
      });
      break;
    case 'none':
      break;
  }
  return events;
}

/** An assistant message streamed in `pieces`. */
export function message(text: string, opts: { id?: string; pieces?: number } = {}) {
  const id = opts.id ?? 'msg_1';
  const n = Math.max(1, opts.pieces ?? 4);
  const size = Math.ceil(text.length / n);
  const chars = Array.from(text);
  const deltas: string[] = [];
  for (let i = 0; i < chars.length; i += size) deltas.push(chars.slice(i, i + size).join(''));
  const done = { id, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
  const events: SseEvent[] = [
    { type: 'response.output_item.added', item: { id, type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
    { type: 'response.content_part.added', item_id: id, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } },
    ...deltas.map((delta) => ({ type: 'response.output_text.delta', item_id: id, content_index: 0, delta })),
    { type: 'response.output_text.done', item_id: id, content_index: 0, text },
    { type: 'response.content_part.done', item_id: id, content_index: 0, part: { type: 'output_text', text, annotations: [] } },
    { type: 'response.output_item.done', item: done },
  ];
  return { events, item: done };
}

/** A function call, optionally inside a namespace (multi-agent tools). */
export function functionCall(name: string, args: unknown, opts: { id?: string; callId?: string; namespace?: string } = {}) {
  const id = opts.id ?? 'fc_1';
  const callId = opts.callId ?? 'call_1';
  const argText = typeof args === 'string' ? args : JSON.stringify(args);
  const ns = opts.namespace ? { namespace: opts.namespace } : {};
  const done = { id, type: 'function_call', status: 'completed', ...ns, name, call_id: callId, arguments: argText };
  const half = Math.ceil(argText.length / 2);
  const events: SseEvent[] = [
    { type: 'response.output_item.added', item: { ...done, status: 'in_progress', arguments: '' } },
    { type: 'response.function_call_arguments.delta', item_id: id, delta: argText.slice(0, half) },
    { type: 'response.function_call_arguments.delta', item_id: id, delta: argText.slice(half) },
    { type: 'response.function_call_arguments.done', item_id: id, arguments: argText },
    { type: 'response.output_item.done', item: done },
  ];
  return { events, item: done };
}

/** A reasoning item with a streamed summary and opaque encrypted content. */
export function reasoning(summary: string, opts: { id?: string; encryptedBytes?: number } = {}) {
  const id = opts.id ?? 'rs_1';
  const encrypted = 'gAAAA' + 'x'.repeat(opts.encryptedBytes ?? 120);
  const done = { id, type: 'reasoning', summary: [{ type: 'summary_text', text: summary }], encrypted_content: encrypted };
  const half = Math.ceil(summary.length / 2);
  const events: SseEvent[] = [
    { type: 'response.output_item.added', item: { id, type: 'reasoning', summary: [] } },
    { type: 'response.reasoning_summary_part.added', item_id: id, summary_index: 0, part: { type: 'summary_text', text: '' } },
    { type: 'response.reasoning_summary_text.delta', item_id: id, summary_index: 0, delta: summary.slice(0, half) },
    { type: 'response.reasoning_summary_text.delta', item_id: id, summary_index: 0, delta: summary.slice(half) },
    { type: 'response.reasoning_summary_text.done', item_id: id, summary_index: 0, text: summary },
    { type: 'response.reasoning_summary_part.done', item_id: id, summary_index: 0, part: { type: 'summary_text', text: summary } },
    { type: 'response.output_item.done', item: done },
  ];
  return { events, item: done };
}

/** Any finished output item, sent as added + done (compaction, web_search_call, custom tool calls, unknown types). */
export function plainItem(item: Record<string, unknown>) {
  return {
    events: [
      { type: 'response.output_item.added', item: { ...item, status: 'in_progress' } },
      { type: 'response.output_item.done', item },
    ] as SseEvent[],
    item,
  };
}

/** Serialises events the way OpenAI frames them: `event:` line, one `data:` line, blank line. */
export function encodeSse(events: SseEvent[], framing: 'lf' | 'crlf' | 'cr' = 'lf'): string {
  const nl = { lf: '\n', crlf: '\r\n', cr: '\r' }[framing];
  return events.map((e) => `event: ${e.type}${nl}data: ${JSON.stringify(e)}${nl}${nl}`).join('');
}
