/**
 * @module Identity of a request from Codex's own fields (codex-protocol.md §2.1, §2.3, §2.4, §6):
 * headers first, then `client_metadata` and the `x-codex-turn-metadata` JSON. No prompt text is read.
 */
import type { Identity, RequestKind } from '../protocol/identity';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const s = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const n = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null;

function parseJson(text: string | null | undefined): Json | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? v : null;
  } catch {
    return null; // a malformed metadata header leaves identity to the other fields
  }
}

/** Header lookup over lower-cased names. */
export type HeaderGet = (name: string) => string | null;

function requestKind(meta: Json | null, body: Json | null, isModelRequest: boolean): RequestKind {
  const k = s(meta?.request_kind);
  if (k === 'turn' || k === 'prewarm' || k === 'compaction') return k;
  if (body?.generate === false) return 'prewarm';
  return isModelRequest && meta ? 'turn' : 'unknown';
}

/** `codex_exec/0.169.0 (…)` → `0.169.0`. */
function versionFromUserAgent(ua: string | null): string | null {
  const m = ua?.match(/^[\w.-]+\/(\d+\.\d+\.\d+[\w.-]*)/);
  return m ? m[1] : null;
}

/**
 * `perMessage`: over the WebSocket transport the handshake headers describe the connection's
 * first (prewarm) request; each message's own `client_metadata` is what describes it.
 */
export function extractIdentity(header: HeaderGet, body: unknown, isModelRequest: boolean, perMessage = false): Identity {
  const b = isObj(body) ? body : null;
  const cm = isObj(b?.client_metadata) ? (b.client_metadata as Json) : null;
  const fromHeader = parseJson(header('x-codex-turn-metadata'));
  const fromBody = parseJson(s(cm?.['x-codex-turn-metadata']));
  const meta = perMessage ? (fromBody ?? fromHeader) : (fromHeader ?? fromBody);
  const parentThreadId = s(header('x-codex-parent-thread-id')) ?? s(meta?.parent_thread_id) ?? s(cm?.['x-codex-parent-thread-id']);
  const subagentHeader = s(header('x-openai-subagent')) ?? s(cm?.['x-openai-subagent']);
  const threadSource = s(meta?.thread_source);
  const compaction = isObj(meta?.compaction) ? meta.compaction : null;
  const reasoning = isObj(b?.reasoning) ? b.reasoning : null;
  return {
    sessionId: s(header('session-id')) ?? s(meta?.session_id) ?? s(cm?.session_id),
    threadId: s(header('thread-id')) ?? s(meta?.thread_id) ?? s(cm?.thread_id),
    parentThreadId,
    turnId: s(meta?.turn_id) ?? s(cm?.turn_id),
    rootTurnId: s(meta?.root_turn_id) ?? s(cm?.root_turn_id),
    parentTurnId: s(meta?.parent_turn_id) ?? s(cm?.parent_turn_id),
    agentName: s(meta?.agent_name),
    agentNickname: null,
    role: threadSource === 'subagent' || parentThreadId || subagentHeader ? 'subagent' : 'main',
    threadSource,
    subagentHeader,
    subagentKind: s(meta?.subagent_kind),
    requestKind: requestKind(meta, b, isModelRequest),
    compactionImplementation: s(compaction?.implementation),
    windowNumber: n(meta?.window_number),
    windowId: perMessage
      ? (s(cm?.['x-codex-window-id']) ?? s(meta?.window_id))
      : (s(header('x-codex-window-id')) ?? s(meta?.window_id) ?? s(cm?.['x-codex-window-id'])),
    originator: s(header('originator')),
    clientVersion: s(header('version')) ?? versionFromUserAgent(header('user-agent')),
    promptCacheKey: s(b?.prompt_cache_key),
    model: s(b?.model) ?? s(meta?.model),
    reasoningEffort: s(reasoning?.effort) ?? s(meta?.reasoning_effort),
  };
}
