/**
 * @module Identity of a request from Codex's own fields (codex-protocol.md §2.1, §2.3, §2.4, §6):
 * headers first, then `client_metadata` and the `x-codex-turn-metadata` JSON. No prompt text is read.
 */
import type { Identity, RequestKind } from '../protocol/identity';
import { isObj, str, type Json } from '../lib/json';

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
  const k = str(meta?.request_kind);
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
  const fromBody = parseJson(str(cm?.['x-codex-turn-metadata']));
  const meta = perMessage ? (fromBody ?? fromHeader) : (fromHeader ?? fromBody);
  const parentThreadId = str(header('x-codex-parent-thread-id')) ?? str(meta?.parent_thread_id) ?? str(cm?.['x-codex-parent-thread-id']);
  const subagentHeader = str(header('x-openai-subagent')) ?? str(cm?.['x-openai-subagent']);
  const threadSource = str(meta?.thread_source);
  const compaction = isObj(meta?.compaction) ? meta.compaction : null;
  const reasoning = isObj(b?.reasoning) ? b.reasoning : null;
  return {
    sessionId: str(header('session-id')) ?? str(meta?.session_id) ?? str(cm?.session_id),
    threadId: str(header('thread-id')) ?? str(meta?.thread_id) ?? str(cm?.thread_id),
    parentThreadId,
    turnId: str(meta?.turn_id) ?? str(cm?.turn_id),
    rootTurnId: str(meta?.root_turn_id) ?? str(cm?.root_turn_id),
    parentTurnId: str(meta?.parent_turn_id) ?? str(cm?.parent_turn_id),
    agentName: str(meta?.agent_name),
    agentNickname: null,
    role: threadSource === 'subagent' || parentThreadId || subagentHeader ? 'subagent' : 'main',
    threadSource,
    subagentHeader,
    subagentKind: str(meta?.subagent_kind),
    requestKind: requestKind(meta, b, isModelRequest),
    compactionImplementation: str(compaction?.implementation),
    windowNumber: n(meta?.window_number),
    windowId: perMessage
      ? (str(cm?.['x-codex-window-id']) ?? str(meta?.window_id))
      : (str(header('x-codex-window-id')) ?? str(meta?.window_id) ?? str(cm?.['x-codex-window-id'])),
    originator: str(header('originator')),
    clientVersion: str(header('version')) ?? versionFromUserAgent(header('user-agent')),
    promptCacheKey: str(b?.prompt_cache_key),
    model: str(b?.model) ?? str(meta?.model),
    reasoningEffort: str(reasoning?.effort) ?? str(meta?.reasoning_effort),
  };
}
