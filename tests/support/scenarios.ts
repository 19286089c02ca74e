/**
 * Scenarios for the fake upstream that drive the real Codex CLI through whole turns: the answer
 * depends on what Codex sent (its last input item, whether it is a sub-agent, a compaction
 * request, or a code-mode model), so retries and follow-ups get the right reply. Test-only.
 */
import type { Plan, ReceivedRequest, Scenario } from './fake-upstream';
import { functionCall, message, plainItem, reasoning, response, type UsageSpec } from './sse';

/** The last item of the request's input. */
export function lastItem(req: ReceivedRequest): any {
  const input = req.body?.input;
  return Array.isArray(input) ? input[input.length - 1] : undefined;
}

export function turnMeta(req: ReceivedRequest): Record<string, any> {
  try {
    return JSON.parse(String(req.headers['x-codex-turn-metadata'] ?? '{}'));
  } catch {
    return {};
  }
}

export const isSubagent = (req: ReceivedRequest) => !!req.headers['x-openai-subagent'] || turnMeta(req).thread_source === 'subagent';
export const isCompaction = (req: ReceivedRequest) => turnMeta(req).request_kind === 'compaction';
/** Code-mode catalog models send no `tools` field; their tools travel in an `additional_tools` item. */
export const isCodeMode = (req: ReceivedRequest) =>
  !req.body?.tools && (req.body?.input ?? []).some((i: any) => i.type === 'additional_tools');

const sse = (items: Parameters<typeof response>[0], usage: UsageSpec, id: string, extra: Partial<Plan & { kind: 'sse' }> = {}): Plan => ({
  kind: 'sse',
  events: response(items, { id, usage }),
  ...extra,
});

let seq = 0;
const rid = () => `resp_${++seq}`;

/**
 * A command run, as a direct `exec_command` call or (code mode) as an `exec` script calling it.
 * Codex returns as soon as the command exits; the long yield only matters on a loaded machine,
 * where the sandbox can take over a second to start and the output would otherwise be empty.
 */
function runCommand(req: ReceivedRequest, cmd: string) {
  if (isCodeMode(req)) {
    return plainItem({
      id: 'ctc_1',
      type: 'custom_tool_call',
      status: 'completed',
      call_id: 'call_exec_1',
      name: 'exec',
      input: `const r = await tools.exec_command({ cmd: ${JSON.stringify(cmd)}, yield_time_ms: 10000 });\ntext(r);`,
    });
  }
  return functionCall('exec_command', { cmd, yield_time_ms: 10000 }, { id: 'fc_1', callId: 'call_cmd_1' });
}

const isToolOutput = (item: any) => item?.type === 'function_call_output' || item?.type === 'custom_tool_call_output';

/** Real responses name the model that served them; the fake echoes the requested one. */
function echoModel(make: () => Scenario): () => Scenario {
  return () => {
    const inner = make();
    return async (req) => {
      const plan = await inner(req);
      if (plan.kind === 'sse' && typeof req.body?.model === 'string') {
        for (const e of plan.events)
          if (e.response && typeof e.response === 'object') (e.response as Record<string, unknown>).model = req.body.model;
      }
      return plan;
    };
  };
}

const raw = {
  /** (a) One text answer: input 5000 / cached 4096 / output 12 → Codex prints 916. */
  text: (): Scenario => () => sse([message('Hello from the fake upstream.')], { input: 5000, cached: 4096, output: 12 }, rid()),

  /** (b) A tool call, then a text answer once Codex sends the command's output. */
  toolCall: (): Scenario => (req) =>
    isToolOutput(lastItem(req))
      ? sse([message('The command printed: hi')], { input: 5000, cached: 4096, output: 12 }, rid())
      : sse([runCommand(req, 'echo hi')], { input: 6000, cached: 5000, output: 40 }, rid()),

  /** (c) Reasoning before the tool call and before the final answer. */
  reasoning: (): Scenario => (req) =>
    isToolOutput(lastItem(req))
      ? sse(
          [reasoning('**Wrapping up**\n\nThe command worked.', { id: 'rs_2' }), message('Done: the command printed hi.')],
          { input: 7000, cached: 6000, output: 80, reasoning: 60 },
          rid(),
        )
      : sse(
          [reasoning('**Planning**\n\nI will run a quick command first.', { id: 'rs_1' }), runCommand(req, 'echo hi')],
          { input: 6000, cached: 5000, output: 40, reasoning: 24 },
          rid(),
        ),

  /** (d) HTTP 429 `usage_limit_reached` with Codex rate-limit headers: Codex stops without retrying. */
  usageLimit: (): Scenario => () => ({
    kind: 'json',
    status: 429,
    headers: {
      'x-codex-primary-used-percent': '100.0',
      'x-codex-primary-window-minutes': '300',
      'x-codex-primary-reset-at': String(Math.floor(Date.now() / 1000) + 3600),
      'x-codex-secondary-used-percent': '42.5',
      'x-codex-secondary-window-minutes': '10080',
      'x-codex-secondary-reset-at': String(Math.floor(Date.now() / 1000) + 86400),
      'x-request-id': 'req_fake_429',
    },
    body: {
      error: {
        type: 'usage_limit_reached',
        message: 'The usage limit has been reached',
        plan_type: 'plus',
        resets_at: Math.floor(Date.now() / 1000) + 3600,
      },
    },
  }),

  /** `response.failed` with a non-retryable code: Codex gives up at once. */
  failed: (): Scenario => () => ({
    kind: 'sse',
    events: response([], {
      id: rid(),
      end: 'failed',
      failedError: { code: 'insufficient_quota', message: 'You exceeded your current quota (scripted).' },
      usage: { input: 3000, cached: 0, output: 0 },
    }),
  }),

  /** `response.incomplete`: Codex reports the reason; its usage still counts. */
  incomplete: (): Scenario => () => ({
    kind: 'sse',
    events: response([message('Partial answer')], {
      id: rid(),
      end: 'incomplete',
      incompleteReason: 'max_output_tokens',
      usage: { input: 5000, cached: 1000, output: 300 },
    }),
  }),

  /** (e) multi_agent_v1: spawn a child, wait for it, then answer. The child answers once. */
  subagentV1: (): Scenario => (req) => {
    if (isSubagent(req)) return sse([message('Sub-agent reporting: hi from the child.')], { input: 4000, cached: 3096, output: 12 }, rid());
    const last = lastItem(req);
    const input: any[] = req.body?.input ?? [];
    const spawned = input.find((i) => i.type === 'function_call_output' && /agent_id/.test(String(i.output)));
    if (!spawned)
      return sse(
        [
          functionCall(
            'spawn_agent',
            { message: 'Say hi and stop.' },
            { namespace: 'multi_agent_v1', id: 'fc_spawn', callId: 'call_spawn' },
          ),
        ],
        { input: 5000, cached: 4096, output: 20 },
        rid(),
      );
    const agentId = JSON.parse(String(spawned.output)).agent_id;
    const waited = input.some((i) => i.type === 'function_call' && i.name === 'wait_agent');
    if (!waited)
      return sse(
        [
          functionCall(
            'wait_agent',
            { targets: [agentId], timeout_ms: 15000 },
            { namespace: 'multi_agent_v1', id: 'fc_wait', callId: 'call_wait' },
          ),
        ],
        { input: 5200, cached: 4096, output: 20 },
        rid(),
      );
    if (last?.type === 'message' && last.role === 'user' && /subagent_notification/.test(JSON.stringify(last))) {
      return sse([message('Parent done; the sub-agent finished.')], { input: 5600, cached: 5000, output: 12 }, rid());
    }
    return sse([message('Parent done; the sub-agent finished.')], { input: 5400, cached: 5000, output: 12 }, rid());
  },

  /** multi_agent_v2 (`collaboration` namespace): spawn a named task, wait, answer. */
  subagentV2: (): Scenario => (req) => {
    if (isSubagent(req)) return sse([message('Child task done.')], { input: 4000, cached: 3096, output: 10 }, rid());
    const input: any[] = req.body?.input ?? [];
    const calls = input.filter((i) => i.type === 'function_call').map((i) => i.name);
    if (!calls.includes('spawn_agent')) {
      return sse(
        [
          functionCall(
            'spawn_agent',
            { task_name: 'greeter', message: 'Say hi and stop.' },
            { namespace: 'collaboration', id: 'fc_spawn', callId: 'call_spawn' },
          ),
        ],
        { input: 5000, cached: 4096, output: 20 },
        rid(),
      );
    }
    if (!calls.includes('wait_agent')) {
      return sse(
        [functionCall('wait_agent', { timeout_ms: 15000 }, { namespace: 'collaboration', id: 'fc_wait', callId: 'call_wait' })],
        { input: 5200, cached: 4096, output: 20 },
        rid(),
      );
    }
    return sse([message('Parent done; the task finished.')], { input: 5400, cached: 5000, output: 12 }, rid());
  },

  /**
   * Local compaction (custom provider, `model_auto_compact_token_limit = 10000`): the first
   * answer reports 250 000 input tokens, so Codex compacts mid-turn, then continues in window 1.
   */
  localCompaction: (): Scenario => (req) => {
    if (isCompaction(req))
      return sse([message('SUMMARY: the user asked to run echo hi; it printed hi.')], { input: 250000, cached: 0, output: 30 }, rid());
    if (isToolOutput(lastItem(req))) return sse([message('Finished.')], { input: 5000, cached: 4096, output: 12 }, rid());
    if ((turnMeta(req).window_number ?? 0) > 0)
      return sse([message('Finished after compaction.')], { input: 5000, cached: 4096, output: 12 }, rid());
    return sse([runCommand(req, 'echo hi')], { input: 250000, cached: 200000, output: 50 }, rid());
  },
} satisfies Record<string, () => Scenario>;

export type ScenarioName = keyof typeof raw;

export const scenarios = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, echoModel(v)])) as Record<ScenarioName, () => Scenario>;
