/**
 * @module Reads one Codex rollout file (`sessions/**\/rollout-*.jsonl`) into exchange records,
 * one per model response. Pure: text in, records out.
 *
 * Codex 0.169 writes a `token_usage_record` line per response with its `response_id` and that
 * response's own usage: that is the unit and the key. Older files have only `event_msg`
 * `token_count` lines, whose `last_token_usage` is the last response's usage (repeated when the
 * cumulative total did not move). The cumulative fields (`total_token_usage`, `turn_token_usage`,
 * `thread_token_usage`) are never summed. A `compacted` line names the response that compacted
 * (`compaction_response_id`); its replacement history holds a `compaction` item when the
 * compaction was remote (which Codex does not count). A fork's file can replay its parent's
 * history: usage lines written before the fork (earlier timestamp or another thread's id) are
 * the parent's and are counted in the parent's file only.
 */
import { createHash } from 'node:crypto';
import { countedByCodex } from '../../analysis/codex-count';
import { arr, isObj, str, type Json } from '../../lib/json';
import type { ExchangeRecord, OutputItem } from '../../protocol/exchange';
import type { Identity, RequestKind } from '../../protocol/identity';
import type { CodexLimit, RateLimits, RateLimitWindow } from '../../protocol/ratelimits';
import type { Usage } from '../../protocol/usage';

export interface RolloutThread {
  threadId: string;
  sessionId: string;
  parentThreadId: string | null;
  forkedFrom: string | null;
  role: 'main' | 'subagent';
  agentName: string | null;
  nickname: string | null;
  cliVersion: string | null;
  modelProvider: string | null;
  originator: string | null;
}

export interface ParsedRollout {
  thread: RolloutThread | null;
  records: ExchangeRecord[];
  /** Lines that are not JSON objects with a `type`, or whose payload is unusable: skipped. */
  malformed: number;
  lines: number;
}

export interface ParseOptions {
  /** Shown in notes, never stored as a path to read. */
  file: string;
}

const OUTPUT_TYPES = new Set([
  'reasoning',
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'web_search_call',
  'image_generation_call',
  'tool_search_call',
  'mcp_call',
]);

const isOutputItem = (p: Json) => (p.type === 'message' && p.role === 'assistant') || OUTPUT_TYPES.has(String(p.type));

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.trunc(v) : null);

/**
 * Codex's own usage record (`input_tokens`, `cached_input_tokens`, `cache_write_input_tokens`,
 * `output_tokens`, `reasoning_output_tokens`, `total_tokens`) as the protocol's `Usage`. Cached
 * and cache-write tokens are parts of input, reasoning part of output; a legacy line without
 * `total_tokens` leaves it unknown rather than adding parts to wholes.
 */
export function usageFromRollout(u: unknown): Usage | null {
  if (!isObj(u)) return null;
  const usage: Usage = {
    inputTokens: count(u.input_tokens),
    cachedTokens: count(u.cached_input_tokens),
    cacheWriteTokens: count(u.cache_write_input_tokens),
    outputTokens: count(u.output_tokens),
    reasoningTokens: count(u.reasoning_output_tokens),
    totalTokens: count(u.total_tokens),
  };
  return usage.inputTokens === null && usage.outputTokens === null ? null : usage;
}

function windowOf(w: unknown): RateLimitWindow | null {
  if (!isObj(w)) return null;
  return {
    usedPercent: typeof w.used_percent === 'number' ? w.used_percent : null,
    windowMinutes: count(w.window_minutes),
    resetsAt: count(w.resets_at),
  };
}

/** `token_count.rate_limits` as the protocol's `RateLimits`; null when it says nothing. */
function rateLimitsOf(r: unknown, observedAt: number): RateLimits | null {
  if (!isObj(r)) return null;
  const primary = windowOf(r.primary);
  const secondary = windowOf(r.secondary);
  const c = isObj(r.credits) ? r.credits : null;
  const planType = str(r.plan_type);
  if (!primary && !secondary && !c && !planType) return null;
  const limit: CodexLimit = { limitId: str(r.limit_id) ?? 'codex', limitName: str(r.limit_name), primary, secondary };
  return {
    observedAt,
    codex: primary || secondary ? [limit] : [],
    credits: c
      ? {
          hasCredits: typeof c.has_credits === 'boolean' ? c.has_credits : null,
          unlimited: typeof c.unlimited === 'boolean' ? c.unlimited : null,
          balance: c.balance === null || c.balance === undefined ? null : String(c.balance),
        }
      : null,
    api: null,
    planType,
    promoMessage: null,
    reachedType: str(r.rate_limit_reached_type),
  };
}

function threadOf(p: Json): RolloutThread | null {
  const threadId = str(p.id);
  if (!threadId) return null;
  const spawn =
    isObj(p.source) && isObj(p.source.subagent) && isObj(p.source.subagent.thread_spawn) ? p.source.subagent.thread_spawn : null;
  const subagent = p.thread_source === 'subagent' || (isObj(p.source) && 'subagent' in p.source);
  return {
    threadId,
    sessionId: str(p.session_id) ?? threadId,
    parentThreadId: str(p.parent_thread_id) ?? (spawn ? str(spawn.parent_thread_id) : null),
    forkedFrom: str(p.forked_from_id),
    role: subagent ? 'subagent' : 'main',
    // Codex names every v1 agent `/root` in its own metadata; v2 children have a path.
    agentName: str(p.agent_path) ?? (spawn ? str(spawn.agent_path) : null) ?? '/root',
    nickname: str(p.agent_nickname) ?? (spawn ? str(spawn.agent_nickname) : null),
    cliVersion: str(p.cli_version),
    modelProvider: str(p.model_provider),
    originator: str(p.originator),
  };
}

/** Sortable by time like captured ids, and the same for the same response of the same thread. */
export function importedId(startedAt: number, key: string): string {
  return `${startedAt.toString(36).padStart(9, '0')}r${createHash('sha256').update(key).digest('hex').slice(0, 10)}`;
}

interface Pending {
  key: string;
  responseId: string | null;
  threadId: string;
  sessionId: string;
  turnId: string | null;
  rootTurnId: string | null;
  startedAt: number;
  endedAt: number;
  usage: Usage;
  model: string | null;
  effort: string | null;
  input: unknown[];
  output: OutputItem[];
  localCompaction: boolean;
  rateLimits: RateLimits | null;
}

const usageKey = (u: unknown) => JSON.stringify(u ?? null);

export function parseRollout(text: string, opts: ParseOptions): ParsedRollout {
  let thread: RolloutThread | null = null;
  let forkedAt: number | null = null;
  let forkOrdinal: number | null = null;
  let model: string | null = null;
  let effort: string | null = null;
  let turnId: string | null = null;
  let rootTurnId: string | null = null;
  let history: unknown[] = [];
  let output: OutputItem[] = [];
  let localCompaction = false;
  let startedAt: number | null = null;
  let lastInputAt = 0;
  let malformed = 0;
  let lines = 0;
  let lastTotal: string | null = null;
  const pending: Pending[] = [];
  const compactions = new Map<string, 'responses' | 'responses_compaction_v2'>();
  const lineList = text.split('\n');
  const hasUsageRecords = text.includes('"token_usage_record"');

  const settle = (p: Omit<Pending, 'input' | 'output' | 'localCompaction' | 'rateLimits' | 'startedAt'>) => {
    pending.push({ ...p, startedAt: startedAt ?? lastInputAt ?? p.endedAt, input: history, output, localCompaction, rateLimits: null });
    if (!localCompaction) history = [...history, ...output];
    output = [];
    localCompaction = false;
    startedAt = null;
  };

  for (let i = 0; i < lineList.length; i++) {
    const raw = lineList[i].trim();
    if (!raw) continue;
    lines++;
    let line: Json;
    try {
      const v: unknown = JSON.parse(raw);
      if (!isObj(v) || typeof v.type !== 'string') throw new Error('not a rollout line');
      line = v;
    } catch {
      malformed++;
      continue;
    }
    const at = typeof line.timestamp === 'string' ? Date.parse(line.timestamp) : NaN;
    const t = Number.isFinite(at) ? at : lastInputAt;
    const p = isObj(line.payload) ? line.payload : null;
    if (!p) {
      malformed++;
      continue;
    }
    const ordinal = typeof line.ordinal === 'number' ? line.ordinal : null;
    // A fork replays its parent's lines first; they belong to the parent's file.
    const replayed =
      thread?.forkedFrom != null &&
      ((forkedAt !== null && t < forkedAt) || (forkOrdinal !== null && ordinal !== null && ordinal < forkOrdinal));
    switch (line.type) {
      case 'session_meta': {
        if (thread) break; // a replayed parent's meta, or a resume repeating its own
        thread = threadOf(p);
        if (!thread) malformed++;
        else if (thread.forkedFrom) {
          const ts = typeof p.timestamp === 'string' ? Date.parse(p.timestamp) : t;
          forkedAt = Number.isFinite(ts) ? ts : t;
          forkOrdinal =
            typeof p.forked_from_ordinal_exclusive === 'number' && !isObj(p.history_base) ? p.forked_from_ordinal_exclusive : null;
        }
        lastInputAt = t;
        break;
      }
      case 'turn_context': {
        model = str(p.model) ?? model;
        const settings = isObj(p.collaboration_mode) && isObj(p.collaboration_mode.settings) ? p.collaboration_mode.settings : null;
        effort = str(p.effort) ?? (settings ? str(settings.reasoning_effort) : null);
        turnId = str(p.turn_id) ?? turnId;
        rootTurnId = str(p.root_turn_id) ?? rootTurnId;
        lastInputAt = t;
        break;
      }
      case 'response_item': {
        if (isOutputItem(p)) {
          startedAt ??= lastInputAt || t;
          output.push(p as OutputItem);
          const meta = isObj(line.metadata) ? line.metadata : null;
          if (meta?.compaction_output === true) localCompaction = true;
        } else {
          history = [...history, p];
          lastInputAt = t;
        }
        break;
      }
      case 'compacted': {
        const id = str(p.compaction_response_id);
        const replacement = arr(p.replacement_history);
        if (id) compactions.set(id, replacement.some((x) => isObj(x) && x.type === 'compaction') ? 'responses_compaction_v2' : 'responses');
        history = replacement.length
          ? replacement
          : str(p.message)
            ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: p.message }] }]
            : history;
        lastInputAt = t;
        break;
      }
      case 'token_usage_record': {
        if (!thread) {
          malformed++;
          break;
        }
        const owner = str(p.thread_id) ?? thread.threadId;
        const usage = usageFromRollout(p.usage);
        if (!usage) {
          malformed++;
          break;
        }
        if (replayed || owner !== thread.threadId) {
          output = [];
          break;
        }
        const responseId = str(p.response_id);
        settle({
          key: `${owner}\u0000${responseId ?? `line ${i}`}`,
          responseId,
          threadId: owner,
          sessionId: str(p.session_id) ?? thread.sessionId,
          turnId: str(p.turn_id) ?? turnId,
          rootTurnId: str(p.root_turn_id) ?? rootTurnId,
          endedAt: t,
          usage,
          model,
          effort,
        });
        break;
      }
      case 'event_msg': {
        if (p.type === 'task_started') {
          turnId = str(p.turn_id) ?? turnId;
          rootTurnId = str(p.root_turn_id) ?? rootTurnId;
          lastInputAt = t;
          break;
        }
        if (p.type !== 'token_count') break;
        const info = isObj(p.info) ? p.info : null;
        const last = pending.at(-1);
        const limits = rateLimitsOf(p.rate_limits, t);
        if (hasUsageRecords) {
          if (last && limits && !last.rateLimits && !replayed) last.rateLimits = limits;
          break;
        }
        // Older files: one exchange per change of the cumulative total, from `last_token_usage`.
        if (!info || !thread) break;
        const total = usageKey(info.total_token_usage);
        if (total === lastTotal) break;
        lastTotal = total;
        const usage = usageFromRollout(info.last_token_usage);
        if (!usage || replayed) {
          output = [];
          break;
        }
        settle({
          key: `${thread.threadId}\u0000line ${ordinal ?? i}`,
          responseId: null,
          threadId: thread.threadId,
          sessionId: thread.sessionId,
          turnId,
          rootTurnId,
          endedAt: t,
          usage,
          model,
          effort,
        });
        if (limits) pending[pending.length - 1].rateLimits = limits;
        break;
      }
      default:
        break;
    }
  }
  const records = thread ? pending.map((p) => toRecord(p, thread!, compactions, opts)) : [];
  return { thread, records, malformed, lines };
}

function toRecord(
  p: Pending,
  thread: RolloutThread,
  compactions: Map<string, 'responses' | 'responses_compaction_v2'>,
  opts: ParseOptions,
): ExchangeRecord {
  const compaction = (p.responseId && compactions.get(p.responseId)) || (p.localCompaction ? 'responses' : null);
  const requestKind: RequestKind = compaction ? 'compaction' : 'turn';
  const chatgpt = p.rateLimits?.planType != null;
  const identity: Identity = {
    sessionId: p.sessionId,
    threadId: p.threadId,
    parentThreadId: thread.parentThreadId,
    turnId: p.turnId,
    rootTurnId: p.rootTurnId,
    parentTurnId: null,
    agentName: thread.agentName,
    agentNickname: thread.nickname,
    role: thread.role,
    threadSource: thread.role === 'subagent' ? 'subagent' : 'user',
    subagentHeader: null,
    subagentKind: thread.role === 'subagent' ? 'thread_spawn' : null,
    requestKind,
    compactionImplementation: compaction,
    windowNumber: null,
    windowId: null,
    originator: thread.originator,
    clientVersion: thread.cliVersion,
    promptCacheKey: null,
    model: p.model,
    reasoningEffort: p.effort,
  };
  const text = p.output
    .filter((o) => o.type === 'message')
    .flatMap((o) => arr(o.content))
    .map((c) => (isObj(c) && typeof c.text === 'string' ? c.text : ''))
    .join('');
  const note = `read from the Codex rollout ${opts.file}: it holds no headers, no tool schemas and no stream events`;
  const body: Json = { model: p.model, input: p.input };
  if (p.effort) body.reasoning = { effort: p.effort };
  return {
    id: importedId(p.startedAt, p.key),
    kind: 'model',
    transport: 'http',
    status: 'completed',
    startedAt: p.startedAt,
    firstByteAt: null,
    endedAt: p.endedAt,
    method: 'POST',
    path: '/responses',
    httpStatus: null,
    model: p.model,
    requestKind,
    sessionId: p.sessionId,
    threadId: p.threadId,
    parentThreadId: thread.parentThreadId,
    turnId: p.turnId,
    agent: { role: thread.role, name: thread.agentName, nickname: thread.nickname },
    usage: p.usage,
    codexCounted: countedByCodex({
      kind: 'model',
      role: thread.role,
      status: 'completed',
      requestKind,
      compactionImplementation: compaction,
    }),
    error: null,
    captureComplete: true,
    route: {
      profileId: 'rollout',
      upstream: thread.modelProvider ?? '',
      auth: chatgpt ? 'chatgpt' : 'none',
      modelRequested: p.model,
      modelSent: p.model,
    },
    responseId: p.responseId,
    preview: text ? text.slice(0, 160) : null,
    requestBytes: null,
    responseBytes: null,
    // Priced and judged by the analysis the import runs on each record, as for a capture.
    cache: null,
    costUsd: null,
    facts: { reasoningEffort: p.effort, serviceTier: null, spawns: [] },
    source: 'rollout',
    identity,
    request: {
      method: 'POST',
      path: '/responses',
      query: '',
      upstreamUrl: null,
      headers: {},
      bodyBytes: 0,
      bodyEncoding: null,
      body,
      bodyNote: note,
    },
    response: { status: null, headers: {}, events: [], output: p.output, bodyNote: note },
    rateLimits: p.rateLimits,
    captureErrors: [],
  };
}
