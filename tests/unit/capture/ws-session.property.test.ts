import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddonManager } from '../../../companion/capture/addons';
import type { ExchangeFlow } from '../../../companion/capture/flow';
import { WsCaptureSession } from '../../../companion/capture/ws-session';
import { createLogger } from '../../../companion/lib/log';
import { ExchangeRecordSchema, type ExchangeRecord } from '../../../companion/protocol/exchange';
import { awkwardText, chaoticEvent, responseEvents, responseSpec } from '../../support/arbitraries';
import { DEFAULT_ROUTE } from '../../support/flows';

/** A relayed connection's capture, with every finished exchange collected as its record. */
function session() {
  const addons = new AddonManager(createLogger('silent'));
  const ended: { hook: 'response' | 'error'; record: ExchangeRecord }[] = [];
  const end = (hook: 'response' | 'error') => (flow: ExchangeFlow) => void ended.push({ hook, record: flow.toRecord() });
  addons.add({ name: 'collect', response: end('response'), error: end('error') });
  const s = new WsCaptureSession({
    path: '/v1/responses',
    query: '',
    upstreamUrl: 'wss://api.openai.com/v1/responses',
    handshakeHeaders: [['authorization', 'Bearer sk-test']],
    upgradeResponseHeaders: [],
    upgradedAt: 0,
    route: DEFAULT_ROUTE,
    maxCaptureBytes: 64 * 1024 * 1024,
    addons,
    capturing: () => true,
    onRateLimits: () => {},
    onTurn: () => {},
  });
  return { s, ended, idle: () => addons.idle() };
}

const inputItem = fc.oneof(
  awkwardText.map((text) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] })),
  fc.record({ type: fc.constant('function_call_output'), call_id: fc.string({ maxLength: 8 }), output: awkwardText }),
);

const turn = fc.record({
  input: fc.array(inputItem, { maxLength: 3 }),
  /** Continue the previous response (as Codex does on one connection), or start over. */
  chained: fc.boolean(),
  response: responseSpec,
});

describe('capture of a Responses WebSocket, for any conversation (property)', () => {
  it('rebuilds every chained request to the full input an HTTP request would have carried', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 5 }), async (turns) => {
        const { s, ended, idle } = session();
        // What each turn's request would carry over HTTP, and whether its response can be chained.
        let previous: { id: string; full: unknown[]; output: unknown[]; finished: boolean } | null = null;
        const expected: { full: unknown[]; complete: boolean }[] = [];
        turns.forEach((t, k) => {
          const id = `resp_${k}`;
          const chain = t.chained && previous !== null;
          const known = chain && previous!.finished;
          const full = known ? [...previous!.full, ...previous!.output, ...t.input] : t.input;
          expected.push({ full, complete: !chain || known });
          s.onClientText(
            JSON.stringify({
              type: 'response.create',
              model: 'gpt-5-codex',
              input: t.input,
              ...(chain ? { previous_response_id: previous!.id } : {}),
            }),
          );
          const events = responseEvents(t.response, id, `t${k}_`);
          for (const e of events) s.onServerText(JSON.stringify(e));
          const terminal = events.at(-1) as { type: string; response?: { output?: unknown[] } };
          const finished = t.response.end !== 'none';
          previous = { id, full, output: finished ? (terminal.response?.output ?? []) : [], finished };
        });
        await s.abort('connection closed');
        await idle();
        expect(ended).toHaveLength(turns.length);
        ended.forEach(({ record }, k) => {
          expect((record.request.body as { input: unknown[] }).input).toEqual(expected[k].full);
          expect(record.captureComplete).toBe(expected[k].complete);
          expect(record.status).toBe(turns[k].response.end === 'none' ? 'aborted' : turns[k].response.end);
        });
      }),
      { numRuns: 100 },
    );
  });

  it('never throws on arbitrary messages from either side, and ends every exchange once in a defined status', async () => {
    const clientMessage = fc.oneof(
      turn.map((t) => JSON.stringify({ type: 'response.create', input: t.input, previous_response_id: 'resp_0' })),
      fc.constant(JSON.stringify({ type: 'response.create' })),
      fc.string({ maxLength: 20 }),
    );
    const serverMessage = fc.oneof(
      responseSpec.map((spec) => responseEvents(spec, 'resp_0').map((e) => JSON.stringify(e))),
      chaoticEvent.map((e) => [JSON.stringify(e)]),
      fc
        .record({ status_code: fc.oneof(fc.constantFrom(400, 429, 500), fc.string()), error: fc.jsonValue({ maxDepth: 2 }) })
        .map((e) => [JSON.stringify({ type: 'error', ...e })]),
      fc.string({ maxLength: 20 }).map((t) => [t]),
      fc.constant(['binary']),
    );
    const step = fc.oneof(
      clientMessage.map((text) => ({ from: 'client' as const, texts: [text] })),
      serverMessage.map((texts) => ({ from: 'server' as const, texts })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        const { s, ended, idle } = session();
        let started = 0;
        for (const st of steps) {
          for (const text of st.texts) {
            if (st.from === 'client') {
              const before = s.current;
              s.onClientText(text);
              if (s.current && s.current !== before) started++;
            } else if (text === 'binary') s.onBinary('server', 3);
            else s.onServerText(text);
          }
        }
        await s.abort('connection closed');
        await idle();
        expect(ended).toHaveLength(started);
        expect(new Set(ended.map((e) => e.record.id)).size).toBe(started);
        for (const { record } of ended) {
          expect(ExchangeRecordSchema.safeParse(record).success).toBe(true);
          expect(['completed', 'incomplete', 'failed', 'aborted']).toContain(record.status);
          if (record.status !== 'completed') expect(record.error?.message).toBeTruthy();
        }
      }),
      { numRuns: 200 },
    );
  });
});
