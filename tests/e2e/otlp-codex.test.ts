import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureRun, type CaptureRun } from '../support/capture-run';
import { TEST_API_KEY } from '../support/codex';
import { rawRequest } from '../support/http';
import { openFeed } from '../support/live-client';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { StatusResponseSchema, UsageResponseSchema } from '../../companion/protocol';

const PROMPT = 'run echo hi';
const HEADER_SECRET = 'otlp-header-secret-5f1e2d3c';
/** Short timers so a test run does not wait for the production batch delay and metric interval. */
const FAST = { OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_METRIC_EXPORT_INTERVAL: '300', OTEL_EXPORTER_OTLP_TIMEOUT: '1500' };

const chat = (spans: ReceivedSpan[]) => spans.filter((s) => s.name.startsWith('chat '));
const roots = (spans: ReceivedSpan[]) => spans.filter((s) => s.name.startsWith('invoke_agent '));
const api = async (r: CaptureRun, p: string) =>
  JSON.parse(
    (await rawRequest(`${r.companion.url}/api${p}`, { headers: { authorization: `Bearer ${r.companion.token()}` } })).body.toString(),
  );

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('OTLP export (protobuf) of a real Codex run with a sub-agent', () => {
  let receiver: OtlpReceiver;
  let r: CaptureRun;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    r = await captureRun(
      'subagentV1',
      {},
      {
        env: { ...process.env, ...FAST },
        otlp: { endpoint: receiver.url, headers: [`x-otlp-auth=${HEADER_SECRET}`], resource: ['team=platform'] },
      },
    );
    // Closing ends the open turns (their root spans) and sends the last metrics.
    await r.companion.close();
  });
  afterAll(async () => {
    await r?.dispose();
    await receiver?.close();
  });

  it('sends protobuf the official opentelemetry-proto definitions decode, with the configured header and resource', () => {
    expect(r.run.exitCode).toBe(0);
    const traces = receiver.requests.filter((q) => q.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    for (const q of receiver.requests) expect(q.contentType).toBe('application/x-protobuf');
    expect(traces[0].headers['x-otlp-auth']).toBe(HEADER_SECRET);
    expect(receiver.spans[0].resource).toMatchObject({ 'service.name': 'codex-devtools', team: 'platform' });
    expect(receiver.spans[0].schemaUrl).toBe('https://opentelemetry.io/schemas/1.41.0');
  });

  it('sends one chat CLIENT span per model exchange with the GenAI attributes and the capture times', () => {
    const spans = chat(receiver.spans);
    const model = r.records.filter((x) => x.kind === 'model');
    expect(spans.map((s) => s.attributes['codex.exchange.id']).sort()).toEqual(model.map((x) => x.id).sort());
    for (const rec of model) {
      const s = spans.find((x) => x.attributes['codex.exchange.id'] === rec.id)!;
      expect(s.kind).toBe(3);
      expect(s.name).toBe('chat gpt-5-codex');
      expect(s.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-5-codex',
        'gen_ai.response.model': 'gpt-5-codex',
        'gen_ai.response.id': rec.responseId,
        'gen_ai.conversation.id': rec.threadId,
        'gen_ai.usage.input_tokens': rec.usage!.inputTokens,
        'gen_ai.usage.cache_read.input_tokens': rec.usage!.cachedTokens,
        'gen_ai.usage.output_tokens': rec.usage!.outputTokens,
        'codex.request.kind': rec.requestKind,
        'codex.transport': rec.transport,
        'codex.counted': rec.codexCounted,
        'codex.agent.role': rec.agent.role,
      });
      expect(s.attributes['gen_ai.response.finish_reasons']).toEqual([
        rec.response.output.some((o) => o.type === 'function_call') ? 'tool_calls' : 'stop',
      ]);
      expect(s.attributes['gen_ai.response.time_to_first_chunk']).toBeCloseTo(rec.response.events[0].t / 1000, 6);
      expect(s.attributes['codex.cache.verdict']).toBe(rec.analysis!.cache.verdict);
      expect(s.attributes['codex.cache.verdict']).toMatch(/^(hit|miss|cold)$/);
      expect(s.startTimeUnixNano).toBe(BigInt(rec.startedAt) * 1_000_000n);
      expect(s.endTimeUnixNano).toBe(BigInt(rec.endedAt!) * 1_000_000n);
    }
  });

  it('puts each turn in its own trace under an invoke_agent root span', () => {
    const rootSpans = roots(receiver.spans);
    const turns = new Set(r.records.filter((x) => x.kind === 'model').map((x) => `${x.threadId}/${x.turnId}`));
    expect(rootSpans).toHaveLength(turns.size);
    for (const s of chat(receiver.spans)) {
      const root = rootSpans.find((x) => x.spanId === s.parentSpanId)!;
      expect(root.traceId).toBe(s.traceId);
      expect(root.attributes['codex.turn.id']).toBe(s.attributes['codex.turn.id']);
      expect(root.parentSpanId).toBe('');
    }
    expect(new Set(rootSpans.map((s) => s.traceId)).size).toBe(rootSpans.length);
  });

  it('sums to the tokens used Codex printed over the counted spans of the root thread', () => {
    const counted = chat(receiver.spans).filter(
      (s) => s.attributes['codex.counted'] === true && s.attributes['codex.agent.role'] === 'main',
    );
    const sum = counted.reduce(
      (a, s) =>
        a +
        (s.attributes['gen_ai.usage.input_tokens'] as number) -
        (s.attributes['gen_ai.usage.cache_read.input_tokens'] as number) +
        (s.attributes['gen_ai.usage.output_tokens'] as number),
      0,
    );
    expect(r.run.tokensUsed).not.toBeNull();
    expect(sum).toBe(r.run.tokensUsed);
  });

  it("links the sub-agent's turn to the turn that spawned it", () => {
    const child = roots(receiver.spans).find((s) => s.attributes['codex.agent.role'] === 'subagent')!;
    expect(child).toBeDefined();
    const spawning = r.records.find((x) => x.response.output.some((o) => o.type === 'function_call' && o.name === 'spawn_agent'))!;
    const spawnSpan = chat(receiver.spans).find((s) => s.attributes['codex.exchange.id'] === spawning.id)!;
    expect(child.links).toEqual([
      { traceId: spawnSpan.traceId, spanId: spawnSpan.parentSpanId, attributes: { 'codex.link.type': 'spawned_by' } },
    ]);
    const parentRoot = roots(receiver.spans).find((s) => s.spanId === child.links[0].spanId)!;
    expect(parentRoot.attributes['codex.agent.role']).toBe('main');
  });

  it('exports no API key, no header value, no prompt text and no command line by default', () => {
    for (const q of receiver.requests) {
      const body = q.body.toString('latin1');
      expect(body).not.toContain(TEST_API_KEY);
      expect(body).not.toContain(HEADER_SECRET);
      expect(body).not.toContain(PROMPT);
      expect(body).not.toContain('Say hi and stop.');
    }
    const keys = receiver.spans.flatMap((s) => [...Object.keys(s.attributes), ...Object.keys(s.resource)]);
    expect(keys.filter((k) => k.startsWith('process.') || k.startsWith('gen_ai.input') || k.startsWith('gen_ai.output'))).toEqual([]);
  });

  it('sends token usage by token type, and duration, cost and cache-miss metrics without ids', () => {
    const last = (name: string) => receiver.metrics.filter((m) => m.name === name).at(-1)!;
    const usage = last('gen_ai.client.token.usage');
    expect(usage.unit).toBe('{token}');
    const model = r.records.filter((x) => x.kind === 'model' && x.usage);
    const sumOf = (type: string) => usage.points.filter((p) => p.attributes['gen_ai.token.type'] === type).reduce((a, p) => a + p.sum!, 0);
    expect(sumOf('input')).toBe(model.reduce((a, x) => a + x.usage!.inputTokens!, 0));
    expect(sumOf('output')).toBe(model.reduce((a, x) => a + x.usage!.outputTokens!, 0));
    const duration = last('gen_ai.client.operation.duration');
    expect(duration.unit).toBe('s');
    expect(duration.points.reduce((a, p) => a + p.count!, 0)).toBe(model.length);
    expect(receiver.metrics.some((m) => m.name === 'codex.client.cost')).toBe(true);
    const attrKeys = receiver.metrics.flatMap((m) => m.points.flatMap((p) => Object.keys(p.attributes)));
    expect(attrKeys.length).toBeGreaterThan(0);
    expect(attrKeys.filter((k) => /\.id$/.test(k))).toEqual([]);
  });
});

describe('OTLP export as JSON, with --otlp-content, of a WebSocket run', () => {
  let receiver: OtlpReceiver;
  let r: CaptureRun;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // The built-in provider: Codex talks over the WebSocket and sends a prewarm first.
    r = await captureRun(
      'text',
      { provider: 'builtin' },
      {
        env: { ...process.env, ...FAST, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
        otlp: { endpoint: receiver.url, signals: 'traces', content: true },
      },
    );
    await r.companion.close();
  });
  afterAll(async () => {
    await r?.dispose();
    await receiver?.close();
  });

  it('sends the JSON form, traces only, and the prompt and answer as GenAI messages', () => {
    expect(r.run.exitCode).toBe(0);
    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const q of receiver.requests) {
      expect(q.path).toBe('/v1/traces');
      expect(q.contentType).toBe('application/json');
    }
    const s = chat(receiver.spans).find((x) => x.attributes['codex.request.kind'] === 'turn')!;
    const input = JSON.parse(s.attributes['gen_ai.input.messages'] as string);
    expect(input).toContainEqual({ role: 'user', parts: [{ type: 'text', content: PROMPT }] });
    const output = JSON.parse(s.attributes['gen_ai.output.messages'] as string);
    expect(output[0]).toMatchObject({ role: 'assistant', parts: [{ type: 'text', content: 'Hello from the fake upstream.' }] });
    for (const q of receiver.requests) expect(q.body.toString()).not.toContain(TEST_API_KEY);
  });

  it('exports WebSocket exchanges and the prewarm too, and still sums to what Codex printed', () => {
    const spans = chat(receiver.spans);
    expect(spans.length).toBe(r.records.filter((x) => x.kind === 'model').length);
    expect(spans.every((s) => s.attributes['codex.transport'] === 'websocket')).toBe(true);
    const kinds = spans.map((s) => s.attributes['codex.request.kind']);
    expect(kinds).toContain('prewarm');
    const counted = spans.filter((s) => s.attributes['codex.counted'] === true);
    expect(counted.every((s) => s.attributes['codex.request.kind'] === 'turn')).toBe(true);
    const sum = counted.reduce(
      (a, s) =>
        a +
        (s.attributes['gen_ai.usage.input_tokens'] as number) -
        (s.attributes['gen_ai.usage.cache_read.input_tokens'] as number) +
        (s.attributes['gen_ai.usage.output_tokens'] as number),
      0,
    );
    expect(sum).toBe(r.run.tokensUsed);
    // The prewarm is a trace of its own; the turn's exchanges share one root.
    expect(roots(receiver.spans)).toHaveLength(new Set(spans.map((s) => s.traceId)).size);
  });
});

describe('OTLP export to a backend that answers 503, then recovers', () => {
  let receiver: OtlpReceiver;
  let r: CaptureRun;
  beforeAll(async () => {
    receiver = await startOtlpReceiver({ answer: 503 });
    r = await captureRun('text', {}, { env: { ...process.env, ...FAST }, otlp: { endpoint: receiver.url, signals: 'traces' } });
  });
  afterAll(async () => {
    await r?.dispose();
    await receiver?.close();
  });

  it('changes nothing for Codex, retries, reports the failure in /api/status, and delivers once the backend is back', async () => {
    expect(r.run.exitCode).toBe(0);
    const usage = UsageResponseSchema.parse(await api(r, '/usage'));
    expect(r.run.tokensUsed).toBe(usage.codexTokensUsed);
    // The SDK retried the 503 within one export; our sender then retries the batch with backoff.
    await until(() => receiver.refused >= 3, 'retried exports');
    const status = async () => StatusResponseSchema.parse(await api(r, '/status')).export!;
    await until(async () => (await status()).traces!.failures >= 1, 'a reported failure');
    const failed = await status();
    expect(failed.traces!.failures).toBeGreaterThanOrEqual(1);
    expect(failed.traces!.lastError!.message).toMatch(/retryable status/);
    expect(failed.traces!.retryAt).not.toBeNull();
    expect(failed.traces!.exported).toBe(0);
    expect(failed.traces!.endpoint).toBe(`${receiver.url}/v1/traces`);
    receiver.answer = 200;
    await until(() => chat(receiver.spans).length === r.records.filter((x) => x.kind === 'model').length, 'spans after recovery');
    const ok = await status();
    expect(ok.traces!.exported).toBeGreaterThan(0);
    expect(ok.traces!.lastSuccessAt).not.toBeNull();
  });
});

describe('OTLP export to an endpoint where nothing listens', () => {
  let r: CaptureRun;
  beforeAll(async () => {
    const gone = await startOtlpReceiver();
    await gone.close();
    // A queue of two spans for a run that makes five: the oldest must go, counted.
    r = await captureRun(
      'subagentV1',
      {},
      { env: { ...process.env, ...FAST, OTEL_BSP_MAX_QUEUE_SIZE: '2' }, otlp: { endpoint: gone.url } },
    );
  });
  afterAll(() => r?.dispose());

  it('keeps at most the configured number of spans, dropping the oldest and counting them', async () => {
    const spans = r.records.filter((x) => x.kind === 'model').length;
    expect(spans).toBeGreaterThan(2);
    const traces = async () => StatusResponseSchema.parse(await api(r, '/status')).export!.traces!;
    // Once no batch is in flight, two spans are left and every other one was dropped.
    await until(async () => (await traces()).dropped === spans - 2, 'the drop count');
    expect((await traces()).queued).toBeLessThanOrEqual(2);
    expect((await traces()).exported).toBe(0);
  });

  it('changes nothing for Codex and reports the refused connection for both signals', async () => {
    expect(r.run.exitCode).toBe(0);
    expect(r.run.tokensUsed).toBe(UsageResponseSchema.parse(await api(r, '/usage')).codexTokensUsed);
    const status = async () => StatusResponseSchema.parse(await api(r, '/status')).export!;
    // A metrics round that finds the first still retrying fails as "not answered yet" before the
    // refused connection itself is known; the refusal is what both signals end up reporting.
    const refused = (e: { message: string } | null | undefined) => /ECONNREFUSED/.test(e?.message ?? '');
    await until(async () => {
      const s = await status();
      return s.traces!.failures >= 1 && s.metrics!.failures >= 1 && refused(s.traces!.lastError) && refused(s.metrics!.lastError);
    }, 'the refused connection reported for both signals');
    const s = await status();
    expect(s.traces!.lastError!.message).toMatch(/ECONNREFUSED/);
    expect(s.traces!.retryAt).not.toBeNull();
    expect(s.content).toBe(false);
    // The panel's status line hears of it live, apart from capture errors.
    const feed = await openFeed(r.companion.url, {
      token: r.companion.token(),
      origin: 'chrome-extension://dceflbcgefibjiafpacongiijjkjedae',
    });
    try {
      const snapshot = await feed.waitFor('feed/snapshot');
      expect(snapshot.capture).toMatchObject({ errors: 0, exportLastError: expect.stringMatching(/ECONNREFUSED/) });
      const before = snapshot.capture.exportFailures!;
      expect(before).toBeGreaterThanOrEqual(2);
      const pushed = await feed.waitFor('capture/changed', (m) => (m.capture.exportFailures ?? 0) > before);
      expect(pushed.capture.errors).toBe(0);
    } finally {
      feed.close();
    }
  });
});

describe('OTLP export to a backend that accepts the connection and never answers', () => {
  let receiver: OtlpReceiver;
  let r: CaptureRun;
  let capturedAt: number;
  beforeAll(async () => {
    receiver = await startOtlpReceiver({ answer: 'hang' });
    // A timeout far longer than the run: every export request the run starts is still held when it ends.
    r = await captureRun(
      'subagentV1',
      {},
      { env: { ...process.env, ...FAST, OTEL_EXPORTER_OTLP_TIMEOUT: '600000' }, otlp: { endpoint: receiver.url } },
    );
    // captureRun returns once capture has stored and analysed everything Codex sent.
    capturedAt = Date.now();
  });
  afterAll(async () => {
    await r?.dispose();
    await receiver?.close();
  });

  it('changes nothing for Codex, and capture finishes while an export it started is still unanswered', async () => {
    expect(r.run.exitCode).toBe(0);
    expect(r.run.tokensUsed).toBe(UsageResponseSchema.parse(await api(r, '/usage')).codexTokensUsed);
    expect(r.records.filter((x) => x.kind === 'model').every((x) => x.status === 'completed' && x.analysis)).toBe(true);
    const traces = receiver.held.filter((h) => h.path === '/v1/traces');
    expect(traces.length).toBeGreaterThanOrEqual(1);
    expect(traces[0].at).toBeLessThan(capturedAt);
    expect(traces[0].closedAt).toBeNull();
    const status = StatusResponseSchema.parse(await api(r, '/status')).export!.traces!;
    expect(status).toMatchObject({ exported: 0, failures: 0 });
  });

  it('keeps one export request per signal in flight however many exchanges and metric rounds wait', async () => {
    expect(r.records.filter((x) => x.kind === 'model').length).toBeGreaterThan(1);
    // The metric reader gives up on a round sooner than the request times out: later rounds must not open more.
    await until(async () => StatusResponseSchema.parse(await api(r, '/status')).export!.metrics!.failures >= 2, 'skipped metric rounds');
    for (const path of ['/v1/traces', '/v1/metrics']) {
      expect(
        receiver.held.filter((h) => h.path === path),
        path,
      ).toHaveLength(1);
      expect(receiver.peakHeld(path), path).toBe(1);
    }
  });

  it('reports a metrics round that finds the previous request still unanswered', async () => {
    const metrics = StatusResponseSchema.parse(await api(r, '/status')).export!.metrics!;
    expect(metrics.lastError!.message).toMatch(/has not answered the previous metrics export/);
    expect(metrics.exported).toBe(0);
  });
});

describe('OTLP export to a hung backend, with a short export timeout', () => {
  let receiver: OtlpReceiver;
  let r: CaptureRun;
  beforeAll(async () => {
    receiver = await startOtlpReceiver({ answer: 'hang' });
    // A queue of two spans for a run that makes five: the oldest must go, counted.
    r = await captureRun(
      'subagentV1',
      {},
      {
        env: {
          ...process.env,
          ...FAST,
          OTEL_EXPORTER_OTLP_TIMEOUT: '1000',
          OTEL_BSP_MAX_QUEUE_SIZE: '2',
          OTEL_METRIC_EXPORT_INTERVAL: '2000',
        },
        otlp: { endpoint: receiver.url },
      },
    );
  });
  afterAll(async () => {
    await r?.dispose();
    await receiver?.close();
  });

  const status = async () => StatusResponseSchema.parse(await api(r, '/status')).export!;

  it('times out each request, gives up its connection, retries, and reports it in /api/status', async () => {
    expect(r.run.exitCode).toBe(0);
    expect(r.run.tokensUsed).toBe(UsageResponseSchema.parse(await api(r, '/usage')).codexTokensUsed);
    await until(() => receiver.held.filter((h) => h.path === '/v1/traces').length >= 2, 'a retried export');
    const [first, second] = receiver.held.filter((h) => h.path === '/v1/traces');
    // The companion closed the first request before it sent the retry: never two at once.
    expect(first.closedAt).not.toBeNull();
    expect(first.closedAt!).toBeLessThanOrEqual(second.at);
    expect(receiver.peakHeld('/v1/traces')).toBe(1);
    await until(async () => (await status()).traces!.failures >= 1 && (await status()).metrics!.failures >= 1, 'reported failures');
    const s = await status();
    expect(s.traces!.lastError!.message).toMatch(/timed out/i);
    expect(s.traces!.retryAt).not.toBeNull();
    expect(s.traces!.exported).toBe(0);
    expect(s.metrics!.lastError!.message).toMatch(/timed out/i);
  });

  it('keeps at most the configured number of spans while the backend hangs, dropping the oldest and counting them', async () => {
    const spans = r.records.filter((x) => x.kind === 'model').length;
    expect(spans).toBeGreaterThan(2);
    // Once the batch that hung is back in the queue, two spans are left and every other one was dropped.
    await until(async () => (await status()).traces!.dropped === spans - 2, 'the drop count');
    expect((await status()).traces!.queued).toBeLessThanOrEqual(2);
  });
});
