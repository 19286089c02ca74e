/**
 * Captures real, unelided Codex CLI requests (the pinned `@openai/codex`) against the scripted
 * fake upstream and writes them to tests/fixtures/unelided/, one file per request, in the same
 * shape as tests/fixtures/codex-0.169 (authorization header removed, nothing elided).
 *
 * Run: `npx tsx tests/support/capture-unelided.ts [scenario…]` (all scenarios when none named).
 *
 * The fake's usage figures are scripted but consistent with the bodies: input tokens are the
 * o200k count of the request's input and tools as JSON, and cached tokens are what the previous
 * request of the same thread left cacheable (its input plus output, in 128-token blocks from
 * 1,024), so a normal turn reads as a cache hit. The compaction scenario reports an oversized
 * input on purpose, to make Codex compact.
 */
import fs from 'node:fs';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { isModelRequest, startFakeUpstream, type ReceivedRequest } from './fake-upstream';
import { isSubagent } from './scenarios';
import { functionCall, message, plainItem, response, type SseEvent, type UsageSpec } from './sse';
import { runCodex } from './codex';

const OUT_DIR = path.resolve('tests/fixtures/unelided');

interface Turn {
  /** Items the fake answers with. */
  items: { events: SseEvent[]; item: Record<string, unknown> }[];
  /** Usage override (otherwise derived from the request). */
  usage?: UsageSpec;
}

interface Scenario {
  name: string;
  model: string;
  prompt: string;
  /** Decides the answer to the model request numbered `n` (1-based) of this run. */
  answer: (req: ReceivedRequest, n: number) => Turn;
  topLevel?: string;
  /** Files written into the work tree before Codex starts (e.g. AGENTS.md). */
  files?: Record<string, string>;
  timeoutMs?: number;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'fallback-text',
    model: 'gpt-5-codex',
    prompt: 'say hello',
    files: { 'AGENTS.md': '# Project notes\n\nAlways answer in one short sentence.\nRun `npm test` before committing.\n' },
    answer: () => ({ items: [message('Hello from the fake upstream.')] }),
  },
  {
    name: 'fallback-tool-call',
    model: 'gpt-5-codex',
    prompt: 'run echo hi',
    answer: (_req, n) =>
      n === 1
        ? { items: [functionCall('exec_command', { cmd: 'echo hi', yield_time_ms: 1000 }, { id: 'fc_1', callId: 'call_1' })] }
        : { items: [message('The command printed: hi')] },
  },
  {
    name: 'codemode-text',
    model: 'gpt-6.1-sol',
    prompt: 'say hello',
    answer: () => ({ items: [message('Hello from the fake upstream.')] }),
  },
  {
    name: 'codemode-tool-call',
    model: 'gpt-6.1-sol',
    prompt: 'what is 6 times 7? use exec',
    answer: (_req, n) =>
      n === 1
        ? {
            items: [
              plainItem({
                id: 'ctc_1',
                type: 'custom_tool_call',
                status: 'completed',
                call_id: 'call_exec_1',
                namespace: 'functions',
                name: 'exec',
                input: 'text(String(6 * 7));',
              }),
            ],
          }
        : { items: [message('6 times 7 is 42.')] },
  },
  {
    name: 'codemode-subagent-v2',
    model: 'gpt-6.1-sol',
    prompt: 'spawn a sub-agent named greeter to say hi',
    timeoutMs: 90_000,
    answer: (req, n) => {
      if (isSubagent(req)) return { items: [message('hi from the greeter.')] };
      const calls = (req.body?.input ?? []).filter((i: { type?: string }) => i.type === 'function_call').length;
      if (n === 1 && calls === 0)
        return {
          items: [
            functionCall(
              'spawn_agent',
              { task_name: 'greeter', message: 'Say hi and stop.' },
              { id: 'fc_spawn', callId: 'call_spawn', namespace: 'collaboration' },
            ),
          ],
        };
      return { items: [message('The greeter said hi.')] };
    },
  },
  {
    name: 'fallback-compaction-local',
    model: 'gpt-5-codex',
    prompt: 'run echo hi',
    topLevel: 'model_auto_compact_token_limit = 10000',
    answer: (req, n) => {
      const meta = String(req.headers['x-codex-turn-metadata'] ?? '');
      if (meta.includes('"request_kind":"compaction"'))
        return {
          items: [message('Summary: the user asked to run `echo hi`; the command was about to run.')],
          usage: { input: 250_000, output: 30 },
        };
      if (n === 1)
        return {
          items: [functionCall('exec_command', { cmd: 'echo hi', yield_time_ms: 1000 }, { id: 'fc_1', callId: 'call_1' })],
          usage: { input: 250_000, cached: 200_000, output: 50 },
        };
      return { items: [message('The command printed: hi')] };
    },
  },
];

/** Blocks of 128 tokens from 1,024 up: the part of a prefix OpenAI's prompt cache can serve. */
function cacheable(tokens: number): number {
  return tokens < 1024 ? 0 : Math.floor(tokens / 128) * 128;
}

function scriptedInputTokens(body: { input?: unknown; tools?: unknown }): number {
  return countTokens(JSON.stringify(body.input ?? []) + JSON.stringify(body.tools ?? []), { disallowedSpecial: new Set() });
}

async function capture(s: Scenario): Promise<void> {
  const lastByThread = new Map<string, number>();
  const answered: { req: ReceivedRequest; events: SseEvent[]; at: number }[] = [];
  let modelN = 0;
  const fake = await startFakeUpstream({
    scenario: (req) => {
      if (!isModelRequest(req)) return { kind: 'json', status: 404, body: { error: { message: 'not scripted' } } };
      modelN += 1;
      const turn = s.answer(req, modelN);
      const thread = String(req.headers['thread-id'] ?? '');
      const input = scriptedInputTokens(req.body ?? {});
      const cached = Math.min(cacheable(lastByThread.get(thread) ?? 0), cacheable(input));
      const usage = turn.usage ?? { input, cached, output: 24 };
      lastByThread.set(thread, usage.input + usage.output);
      const events = response(turn.items, { id: `resp_${String(modelN).padStart(3, '0')}`, model: s.model, usage });
      answered.push({ req, events, at: Date.now() });
      return { kind: 'sse', events };
    },
  });
  const run = await runCodex({
    prompt: s.prompt,
    baseUrl: fake.baseUrl,
    model: s.model,
    topLevel: s.topLevel,
    files: s.files,
    timeoutMs: s.timeoutMs,
  });
  try {
    if (run.exitCode !== 0) throw new Error(`codex exited ${run.exitCode}: ${run.stderr.slice(-2000)}`);
    answered.forEach(({ req, events, at }, i) => {
      const headers = { ...req.headers } as Record<string, unknown>;
      delete headers.authorization;
      const file = path.join(OUT_DIR, `${s.name}-${i + 1}.json`);
      const fixture = {
        scenario: s.name,
        step: i + 1,
        captured_with: `codex-cli 0.169.0, model ${s.model}, custom provider, fake upstream on 127.0.0.1; bodies not elided`,
        transport: 'http',
        received_at_ms: at,
        tokens_used_printed: run.tokensUsed,
        request: { method: req.method, path: req.url, headers, body: req.body },
        response_sent_by_fake_upstream: { status: 200, headers: { 'content-type': 'text/event-stream' }, sse_events: events },
      };
      fs.writeFileSync(file, JSON.stringify(fixture, null, 1) + '\n');
      console.log(`wrote ${path.relative(process.cwd(), file)} (${fs.statSync(file).size} bytes)`);
    });
  } finally {
    run.cleanup();
    await fake.close();
  }
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const wanted = process.argv.slice(2);
  for (const s of SCENARIOS) if (wanted.length === 0 || wanted.includes(s.name)) await capture(s);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
