import { describe, expect, it } from 'vitest';
import { fixtureSse, httpFixtureNames, loadFixture } from '../../support/fixtures';
import { replay, replayFixture, stable } from '../../support/flows';
import { encodeSse, functionCall, message, plainItem, reasoning, response } from '../../support/sse';
import { seededSplits } from '../../support/chunks';
import { ExchangeRecordSchema } from '../../../companion/protocol/exchange';

const sse = (events: Parameters<typeof encodeSse>[0]) => Buffer.from(encodeSse(events));
const req = (body: unknown = { model: 'gpt-5-codex', input: [] }) => ({ headers: { 'content-type': 'application/json' }, body });
const ok = (bytes: Buffer) => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, bytes });

describe('capture of a recorded exchange', () => {
  it('keeps the final output and usage of every fixture exactly as the terminal event gave them', async () => {
    for (const name of httpFixtureNames()) {
      const f = loadFixture(name);
      const events = f.response_sent_by_fake_upstream.sse_events;
      if (!events) continue;
      const terminal = events.at(-1) as any;
      const record = await replayFixture(f);
      expect(record.status, name).toBe(terminal.type.replace('response.', ''));
      expect(record.response.output, name).toEqual(terminal.response.output);
      const u = terminal.response.usage;
      expect(record.usage, name).toEqual({
        inputTokens: u.input_tokens,
        cachedTokens: u.input_tokens_details.cached_tokens,
        cacheWriteTokens: u.input_tokens_details.cache_write_tokens ?? null,
        outputTokens: u.output_tokens,
        reasoningTokens: u.output_tokens_details.reasoning_tokens,
        totalTokens: u.total_tokens,
      });
      expect(
        record.response.events.map((e) => e.data),
        name,
      ).toEqual(events);
    }
  });

  it('builds the same record however the response bytes are chunked, LF or CRLF', async () => {
    const f = loadFixture('c-reasoning-2');
    const whole = await replayFixture(f);
    // CRLF framing adds bytes; everything parsed from them must be identical.
    for (const chunks of seededSplits(Buffer.from(encodeSse(f.response_sent_by_fake_upstream.sse_events!, 'crlf')), 10, 7)) {
      const r = await replayFixture(f, { responseBytes: Buffer.concat(chunks), chunks: () => chunks });
      expect(stable(r)).toEqual(stable(whole));
    }
  });

  it('records a correctly ended CR-only stream as completed, however it is chunked', async () => {
    const f = loadFixture('c-reasoning-2');
    const bytes = fixtureSse(f, 'cr');
    for (const chunks of [[bytes], ...seededSplits(bytes, 5, 3)]) {
      const r = await replay(req(f.request.body), ok(bytes), { chunks: () => chunks });
      expect(r.status).toBe('completed');
      expect(r.error).toBeNull();
      expect(r.response.events.every((e) => e.invalid === undefined)).toBe(true);
    }
  });

  it('takes the main agent identity from Codex headers and turn metadata', async () => {
    const f = loadFixture('a-plain-text-1');
    const r = await replayFixture(f);
    const meta = JSON.parse(f.request.headers['x-codex-turn-metadata']);
    expect(r.identity).toMatchObject({
      sessionId: f.request.headers['session-id'],
      threadId: f.request.headers['thread-id'],
      parentThreadId: null,
      turnId: meta.turn_id,
      agentName: '/root',
      role: 'main',
      threadSource: 'user',
      requestKind: 'turn',
      windowNumber: 0,
      originator: 'codex_exec',
      clientVersion: '0.169.0',
      promptCacheKey: f.request.body.prompt_cache_key,
      model: 'gpt-5-codex',
    });
    expect(r.codexCounted).toBe(true);
  });

  it('recognises a sub-agent by its parent thread, sub-agent header and thread source', async () => {
    const f = loadFixture('e-subagent-v1-3');
    const r = await replayFixture(f);
    expect(r.identity).toMatchObject({
      role: 'subagent',
      parentThreadId: f.request.headers['x-codex-parent-thread-id'],
      subagentHeader: 'collab_spawn',
      threadSource: 'subagent',
      subagentKind: 'thread_spawn',
    });
    expect(r.identity.sessionId).not.toBe(r.identity.threadId);
    expect(r.codexCounted).toBe(false);
  });

  it('counts local compaction as Codex does', async () => {
    const r = await replayFixture(loadFixture('e-compaction-local-2'));
    expect(r.identity).toMatchObject({ requestKind: 'compaction', compactionImplementation: 'responses' });
    expect(r.codexCounted).toBe(true);
  });

  it('does not count remote compaction', async () => {
    const f = loadFixture('e-compaction-local-2');
    const meta = JSON.parse(f.request.headers['x-codex-turn-metadata']);
    meta.compaction.implementation = 'responses_compaction_v2';
    const r = await replayFixture({
      ...f,
      request: { ...f.request, headers: { ...f.request.headers, 'x-codex-turn-metadata': JSON.stringify(meta) } },
    });
    expect(r.codexCounted).toBe(false);
  });

  it('keeps a reasoning item with its summary and encrypted content, never decoded', async () => {
    const r = await replayFixture(loadFixture('c-reasoning-1'));
    const item = r.response.output.find((i) => i.type === 'reasoning') as any;
    expect(item.summary[0].text.length).toBeGreaterThan(0);
    expect(typeof item.encrypted_content).toBe('string');
  });

  it('records an HTTP 429 usage limit as failed with the upstream error and the rate limits', async () => {
    const r = await replayFixture(loadFixture('d-http429-usage-limit-1'));
    expect(r.status).toBe('failed');
    expect(r.httpStatus).toBe(429);
    expect(r.error).toMatchObject({ code: 'http_429', upstreamCode: 'usage_limit_reached' });
    expect(r.usage).toBeNull();
    expect(r.codexCounted).toBe(false);
    expect(r.rateLimits?.codex[0]).toEqual({
      limitId: 'codex',
      limitName: null,
      primary: { usedPercent: 100, windowMinutes: 300, resetsAt: 1795987049 },
      secondary: { usedPercent: 42.5, windowMinutes: 10080, resetsAt: 1796069849 },
    });
    expect(r.rateLimits?.api).toMatchObject({ limitRequests: 500, remainingRequests: 0, resetRequests: '12s' });
  });

  it('reads Codex rate-limit and credit headers from a successful response', async () => {
    const r = await replayFixture(loadFixture('d-ratelimit-headers-ok-1'));
    expect(r.rateLimits?.codex[0].primary).toEqual({ usedPercent: 12.5, windowMinutes: 300, resetsAt: 1795987068 });
    expect(r.rateLimits?.codex[0].secondary).toEqual({ usedPercent: 3, windowMinutes: 10080, resetsAt: 1796069868 });
    expect(r.rateLimits?.credits).toEqual({ hasCredits: false, unlimited: false, balance: null });
  });

  it('ends as failed with the upstream error on response.failed, keeping its usage', async () => {
    const events = response([message('partial')], {
      end: 'failed',
      failedError: { code: 'server_error', message: 'boom' },
      usage: { input: 100, cached: 0, output: 3 },
    });
    const r = await replay(req(), ok(sse(events)));
    expect(r.status).toBe('failed');
    expect(r.error).toEqual({ code: 'response_failed', message: 'boom', upstreamCode: 'server_error' });
    expect(r.usage?.outputTokens).toBe(3);
    expect(r.codexCounted).toBe(false);
  });

  it('ends as incomplete with the reason on response.incomplete, and still counts its usage', async () => {
    const events = response([message('cut')], { end: 'incomplete', incompleteReason: 'max_output_tokens' });
    const r = await replay(
      { headers: { 'x-codex-turn-metadata': JSON.stringify({ request_kind: 'turn', thread_source: 'user' }) }, body: {} },
      ok(sse(events)),
    );
    expect(r.status).toBe('incomplete');
    expect(r.error?.upstreamCode).toBe('max_output_tokens');
    expect(r.codexCounted).toBe(true);
  });

  it('ends as failed when the stream carries a bare error event and no terminal event', async () => {
    const events = [...response([message('hi')], { end: 'none' }), { type: 'error', code: 'rate_limit_exceeded', message: 'slow down' }];
    const r = await replay(req(), ok(sse(events)));
    expect(r.status).toBe('failed');
    expect(r.error).toEqual({ code: 'error_event', message: 'slow down', upstreamCode: 'rate_limit_exceeded' });
  });

  it('ends as an upstream error carrying the text when an error event has non-JSON data', async () => {
    const head = sse(response([message('hi')], { end: 'none' }));
    const bytes = Buffer.concat([head, Buffer.from('event: error\ndata: upstream overloaded, try again\n\n')]);
    const r = await replay(req(), ok(bytes));
    expect(r.status).toBe('failed');
    expect(r.error).toEqual({ code: 'error_event', message: 'upstream overloaded, try again', upstreamCode: null });
    expect(r.response.events.at(-1)).toMatchObject({
      type: 'error',
      data: 'upstream overloaded, try again',
      invalid: 'data is not valid JSON',
    });
  });

  it('does not take an error event cut off by the end of the stream as the upstream error', async () => {
    const head = sse(response([message('hi')], { end: 'none' }));
    const r = await replay(req(), ok(Buffer.concat([head, Buffer.from('event: error\ndata: upstream overl')])));
    expect(r.error?.code).toBe('stream_truncated');
  });

  it('ends as the first terminal event says, as Codex does, ignoring whatever follows it', async () => {
    const incomplete = response([message('cut')], { end: 'incomplete' });
    const after = response([message('later')], { end: 'completed' });
    const r = await replay(req(), ok(sse([...incomplete, ...after])));
    expect(r.status).toBe('incomplete');
    expect(r.error?.code).toBe('response_incomplete');
    expect(r.preview).toBe('cut');
  });

  it('stays completed, without an error, when a bare error event came before response.completed', async () => {
    const events = response([message('fine')]);
    events.splice(2, 0, { type: 'error', code: 'server_error', message: 'ignored by Codex over HTTP' });
    const r = await replay(req(), ok(sse(events)));
    expect(r.status).toBe('completed');
    expect(r.error).toBeNull();
    expect(r.response.events.some((e) => e.type === 'error')).toBe(true);
  });

  it('leaves an output item without a type to the event log, so the record stays valid', async () => {
    const events = response([message('ok')]);
    events.splice(2, 0, { type: 'response.output_item.done', output_index: 5, item: { id: 'x' } });
    (events.at(-1) as any).response.output.push({ id: 'y' });
    const r = await replay(req(), ok(sse(events)));
    expect(r.response.output.map((i) => i.type)).toEqual(['message']);
    expect(ExchangeRecordSchema.safeParse(r).success).toBe(true);
  });

  it('ends as failed when the stream closes before response.completed, keeping what arrived', async () => {
    const full = sse(response([message('Hello there')]));
    const cut = full.subarray(0, full.indexOf('response.output_text.done') + 40);
    const r = await replay(req(), ok(cut));
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('stream_truncated');
    expect(r.preview).toBe('Hello there');
    expect(r.response.events.at(-1)?.invalid).toMatch(/ended inside this event/);
  });

  it('records an event whose data is not JSON as invalid and carries on', async () => {
    const good = response([message('ok')]);
    const bytes = Buffer.concat([Buffer.from('data: {not json\n\n'), sse(good)]);
    const r = await replay(req(), ok(bytes));
    expect(r.response.events[0]).toMatchObject({ type: 'message', data: '{not json', invalid: 'data is not valid JSON' });
    expect(r.status).toBe('completed');
  });

  it('assembles output from deltas when the terminal event carries an empty output list', async () => {
    const events = response([
      reasoning('thinking'),
      functionCall('exec_command', { cmd: 'ls' }, { id: 'fc_9' }),
      message('done', { id: 'm_2' }),
    ]);
    const terminal = events.at(-1) as any;
    terminal.response.output = [];
    for (const e of events) if (e.type === 'response.output_item.done') delete (e as any).item; // only deltas remain
    const r = await replay(req(), ok(sse(events)));
    expect(r.response.output.map((i) => i.type)).toEqual(['reasoning', 'function_call', 'message']);
    expect((r.response.output[0] as any).summary[0].text).toBe('thinking');
    expect((r.response.output[1] as any).arguments).toBe('{"cmd":"ls"}');
    expect((r.response.output[2] as any).content[0].text).toBe('done');
  });

  it('previews a response without text by the calls it makes', async () => {
    const events = response([functionCall('spawn_agent', { message: 'go' }, { namespace: 'multi_agent_v1' })]);
    const r = await replay(req(), ok(sse(events)));
    expect(r.preview).toBe('→ multi_agent_v1.spawn_agent {"message":"go"}');
  });

  it('keeps namespaced calls and unknown item types as they came', async () => {
    const weird = { id: 'x_1', type: 'hologram_call', status: 'completed', beams: [1, 2] };
    const events = response([functionCall('spawn_agent', { message: 'go' }, { namespace: 'multi_agent_v1' }), plainItem(weird)]);
    const r = await replay(req(), ok(sse(events)));
    expect(r.response.output[0]).toMatchObject({ type: 'function_call', namespace: 'multi_agent_v1', name: 'spawn_agent' });
    expect(r.response.output[1]).toEqual(weird);
  });

  it('never counts a subset into its superset: total stays as reported', async () => {
    const events = response([message('x')], { usage: { input: 5000, cached: 1000, cacheWrite: 3000, output: 100, reasoning: 40 } });
    const r = await replay(req(), ok(sse(events)));
    expect(r.usage).toEqual({
      inputTokens: 5000,
      cachedTokens: 1000,
      cacheWriteTokens: 3000,
      outputTokens: 100,
      reasoningTokens: 40,
      totalTokens: 5100,
    });
  });

  it('leaves unknown usage fields null rather than zero', async () => {
    const events = response([message('x')], { usage: null });
    (events.at(-1) as any).response.usage = { input_tokens: 10, output_tokens: 2 };
    const r = await replay(req(), ok(sse(events)));
    expect(r.usage).toEqual({
      inputTokens: 10,
      cachedTokens: null,
      cacheWriteTokens: null,
      outputTokens: 2,
      reasoningTokens: null,
      totalTokens: null,
    });
  });
});
