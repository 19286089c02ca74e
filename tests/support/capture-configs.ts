/**
 * The Codex configurations tests/support/capture-requests.ts records, each chosen because it
 * changes the tool set (see ../shared/docs/codex-tools-0.169.md), with the fake upstream's script.
 * Test-only.
 */
import type { Scenario } from './fake-upstream';
import { functionCall, message, plainItem, response } from './sse';

export interface CaptureConfig {
  /** File name under tests/fixtures/requests/. */
  name: string;
  purpose: string;
  model: string;
  provider: 'custom' | 'builtin';
  topLevel?: string;
  /** TOML after the provider table; leading bare keys still belong to `[model_providers.companion]`. */
  tables?: string;
  /** Adds tests/support/mcp-mini-server.mjs as MCP server `mini`. */
  mcp?: boolean;
  prompt?: string;
  scenario: Scenario;
  /** `all` keeps every model request (follow-ups, sub-agents); `first` only the first. */
  keep?: 'first' | 'all';
}

let responseCounter = 0;
const nextId = () => `resp_capture_${++responseCounter}`;

const text: Scenario = () => ({ kind: 'sse', events: response([message('Hello.')], { id: nextId() }) });

/** The model asks Codex to search its deferred tools, which Codex answers with a `tool_search_output`. */
const toolSearch: Scenario = (req) => {
  const searched = (req.body?.input ?? []).some((i: { type?: string }) => i.type === 'tool_search_output');
  if (searched) return { kind: 'sse', events: response([message('Found them.')], { id: nextId() }) };
  const call = plainItem({
    id: 'tsc_capture_1',
    type: 'tool_search_call',
    call_id: 'call_tool_search_1',
    status: 'completed',
    execution: 'client',
    arguments: { query: 'agent', limit: 8 },
  });
  return { kind: 'sse', events: response([call], { id: nextId() }) };
};

/** Parent spawns a multi-agent v2 child, waits for it, then answers; the child answers at once. */
const subagentV2: Scenario = (req) => {
  if (req.headers['x-openai-subagent']) return { kind: 'sse', events: response([message('Child says hello.')], { id: nextId() }) };
  const outputs = (req.body?.input ?? []).filter((i: { type?: string }) => i.type === 'function_call_output').length;
  const ns = { namespace: 'collaboration' };
  if (outputs === 0) {
    const spawn = functionCall(
      'spawn_agent',
      { task_name: 'greeter', message: 'Say hello.' },
      { ...ns, id: 'fc_spawn', callId: 'call_spawn' },
    );
    return { kind: 'sse', events: response([spawn], { id: nextId() }) };
  }
  if (outputs === 1) {
    const wait = functionCall('wait_agent', { timeout_ms: 20_000 }, { ...ns, id: 'fc_wait', callId: 'call_wait' });
    return { kind: 'sse', events: response([wait], { id: nextId() }) };
  }
  return { kind: 'sse', events: response([message('The child said hello.')], { id: nextId() }) };
};

const features = (lines: string) => `[features]\n${lines}\n`;

export const CAPTURE_CONFIGS: CaptureConfig[] = [
  {
    name: 'gpt-5-codex-default',
    purpose: 'fallback model metadata: tools in body.tools',
    model: 'gpt-5-codex',
    provider: 'custom',
    scenario: text,
  },
  {
    name: 'gpt-5-codex-builtin-default',
    purpose: 'built-in provider (openai_base_url): same tools, WebSocket tried first',
    model: 'gpt-5-codex',
    provider: 'builtin',
    scenario: text,
  },
  {
    name: 'gpt-5.5-default',
    purpose: 'catalog model with apply_patch and tool_search',
    model: 'gpt-5.5',
    provider: 'custom',
    scenario: text,
  },
  {
    name: 'gpt-5.5-tool-search',
    purpose: 'deferred multi_agent_v1 tools arrive in a tool_search_output item',
    model: 'gpt-5.5',
    provider: 'custom',
    scenario: toolSearch,
    keep: 'all',
  },
  {
    name: 'gpt-5.5-image-budget-off',
    purpose: 'view_image gains the detail parameter',
    model: 'gpt-5.5',
    provider: 'custom',
    tables: features('unified_image_budget = false'),
    scenario: text,
  },
  {
    name: 'gpt-5.6-luna-default',
    purpose: 'code mode with multi-agent v1: three tools in additional_tools, the rest nested in exec',
    model: 'gpt-5.6-luna',
    provider: 'custom',
    scenario: text,
  },
  {
    name: 'gpt-6.1-sol-default',
    purpose: 'code mode with collaboration and clock tools',
    model: 'gpt-6.1-sol',
    provider: 'custom',
    scenario: text,
  },
  {
    name: 'gpt-6.1-sol-mcp-tool-search',
    purpose: 'code mode with an MCP server and code_mode_tool_search: nested tool_search',
    model: 'gpt-6.1-sol',
    provider: 'custom',
    mcp: true,
    tables: features('code_mode_tool_search = true'),
    scenario: text,
  },
  {
    name: 'gpt-6.1-sol-builtin',
    purpose: 'code mode with the built-in provider: nested web__run',
    model: 'gpt-6.1-sol',
    provider: 'builtin',
    scenario: text,
  },
  {
    name: 'gpt-5-codex-mcp',
    purpose: 'an MCP server: MCP resource tools and the mcp__mini namespace',
    model: 'gpt-5-codex',
    provider: 'custom',
    mcp: true,
    scenario: text,
  },
  {
    name: 'gpt-5-codex-update-plan',
    purpose: '[tools.update_plan] enabled = true',
    model: 'gpt-5-codex',
    provider: 'custom',
    tables: '[tools.update_plan]\nenabled = true\n',
    scenario: text,
  },
  {
    name: 'gpt-5-codex-web-search-options',
    purpose: 'web_search live with allowed domains and context size',
    model: 'gpt-5-codex',
    provider: 'custom',
    topLevel: 'web_search = "live"',
    tables: '[tools.web_search]\ncontext_size = "high"\nallowed_domains = ["example.com"]\n',
    scenario: text,
  },
  {
    name: 'gpt-5-codex-multi-agent-v2',
    purpose: 'collaboration namespace; a spawned child and its parent (all requests kept)',
    model: 'gpt-5-codex',
    provider: 'custom',
    tables: features('multi_agent_v2 = true'),
    scenario: subagentV2,
    keep: 'all',
  },
  {
    name: 'gpt-5-codex-code-mode',
    purpose: 'features.code_mode: exec and wait beside the direct tools',
    model: 'gpt-5-codex',
    provider: 'custom',
    tables: features('code_mode = true'),
    scenario: text,
  },
  {
    name: 'gpt-5-codex-experimental-tools',
    purpose: 'feature flags that each add one tool or parameter',
    model: 'gpt-5-codex',
    provider: 'custom',
    tables: features(
      [
        'token_budget = true',
        'request_permissions_tool = true',
        'send_message_to_user_async = true',
        'multi_env_copy_file = true',
        'deferred_executor = true',
        'executor_capability_discovery_v2 = true',
        'exec_permission_approvals = true',
        'current_time_reminder = true',
      ].join('\n'),
    ),
    scenario: text,
  },
  {
    name: 'gpt-5-codex-standalone-web-search',
    purpose: 'built-in provider with standalone_web_search: web.run replaces web_search',
    model: 'gpt-5-codex',
    provider: 'builtin',
    tables: features('standalone_web_search = true'),
    scenario: text,
  },
  {
    name: 'gpt-5-codex-image-generation',
    purpose: 'provider with the actor-authorization header: image_gen.imagegen',
    model: 'gpt-5-codex',
    provider: 'custom',
    tables: 'requires_openai_auth = false\nhttp_headers = { "x-openai-actor-authorization" = "capture" }\n',
    scenario: text,
  },
];
