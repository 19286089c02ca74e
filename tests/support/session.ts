/**
 * A synthetic Codex session in Codex's own pattern, built from a real captured request: every
 * request resends the whole history plus the previous response's items and a tool output.
 * Elided prose is filled back in at its original length with word-like text. Test-only.
 */
import type { ExchangeRecord } from '../../companion/protocol/exchange';
import { prng } from './chunks';
import { loadFixture } from './fixtures';
import { replay } from './flows';
import { encodeSse, functionCall, reasoning, response, type SseEvent } from './sse';
import { fakeKey } from './keys';

const WORDS =
  'the a of to and in is it that for on with as was by this be are from at or an have not file code test run build error value line function return const type import export when then'.split(
    ' ',
  );

function prose(n: number, rnd: () => number): string {
  let s = '';
  while (s.length < n) s += WORDS[Math.floor(rnd() * WORDS.length)] + (rnd() < 0.1 ? '.\n' : ' ');
  return s.slice(0, n);
}

/** Restores `[elided …: N chars …]` placeholders with N characters of text. */
function unelide(value: unknown, rnd: () => number): unknown {
  if (typeof value === 'string') {
    const m = /^\[elided[^\]]*?(\d+) chars/.exec(value);
    return m ? prose(Number(m[1]), rnd) : value;
  }
  if (Array.isArray(value)) return value.map((v) => unelide(v, rnd));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unelide(v, rnd)]));
  return value;
}

export interface SessionStep {
  headers: Record<string, string>;
  body: any;
  events: SseEvent[];
  sse: string;
}

/** `n` requests of one thread: tool call after tool call, each with reasoning and streamed arguments. */
export function codexSession(n: number, seed = 42): SessionStep[] {
  const rnd = prng(seed);
  const f = loadFixture('a-plain-text-1');
  const base = unelide(f.request.body, rnd) as any;
  const headers = { ...f.request.headers, authorization: `Bearer ${fakeKey('test-session-0123456789')}` };
  const steps: SessionStep[] = [];
  const input: unknown[] = [...base.input];
  for (let i = 0; i < n; i++) {
    const body = { ...base, input: [...input] };
    const r = reasoning(prose(300, rnd), { id: `rs_${i}`, encryptedBytes: 1200 });
    const call = functionCall('exec_command', { cmd: `cat src/file${i}.ts`, yield_time_ms: 1000 }, { id: `fc_${i}`, callId: `call_${i}` });
    const inputTokens = 9000 + i * 900;
    const events = response([r, call], {
      id: `resp_${i}`,
      usage: { input: inputTokens, cached: Math.max(0, inputTokens - 1200), output: 80, reasoning: 40 },
    });
    // Real streams send arguments a few characters at a time.
    const args = (call.item as any).arguments as string;
    const deltas = Array.from({ length: Math.ceil(args.length / 4) }, (_, k) => ({
      type: 'response.function_call_arguments.delta',
      item_id: `fc_${i}`,
      output_index: 1,
      delta: args.slice(k * 4, k * 4 + 4),
    }));
    const at = events.findIndex((e) => e.type === 'response.function_call_arguments.delta');
    events.splice(at, 2, ...deltas);
    steps.push({ headers, body, events, sse: encodeSse(events) });
    input.push(r.item, call.item, {
      type: 'function_call_output',
      call_id: `call_${i}`,
      output: prose(1500 + Math.floor(rnd() * 1500), rnd),
    });
  }
  return steps;
}

/** A step as live capture records it: replayed through ExchangeFlow (flows.ts). */
export function stepRecord(step: SessionStep): Promise<ExchangeRecord> {
  return replay(
    { headers: step.headers, body: step.body },
    { status: 200, headers: { 'content-type': 'text/event-stream' }, bytes: Buffer.from(step.sse) },
  );
}
