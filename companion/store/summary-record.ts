/**
 * @module A record rebuilt from its summary alone, for exchanges whose full record cannot be read
 * (an unreadable 0.1.0 line, an exchange a crash left unfinished): what is missing says why in
 * its notes and capture errors.
 */
import type { CapturedRequest, ExchangeRecord, ExchangeSummary, StreamEvent } from '../protocol/exchange';

export function recordOfSummary(
  summary: ExchangeSummary,
  note: string,
  known: { request?: CapturedRequest | null; events?: StreamEvent[] } = {},
): ExchangeRecord {
  return {
    ...summary,
    identity: {
      sessionId: summary.sessionId,
      threadId: summary.threadId,
      parentThreadId: summary.parentThreadId,
      turnId: summary.turnId,
      rootTurnId: null,
      parentTurnId: null,
      agentName: summary.agent.name,
      agentNickname: summary.agent.nickname,
      role: summary.agent.role,
      threadSource: null,
      subagentHeader: null,
      subagentKind: null,
      requestKind: summary.requestKind,
      compactionImplementation: null,
      windowNumber: null,
      windowId: null,
      originator: null,
      clientVersion: null,
      promptCacheKey: null,
      model: summary.model,
      reasoningEffort: null,
    },
    request: known.request ?? {
      method: summary.method,
      path: summary.path,
      query: '',
      upstreamUrl: null,
      headers: {},
      bodyBytes: summary.requestBytes ?? 0,
      bodyEncoding: null,
      body: null,
      bodyNote: note,
    },
    response: { status: summary.httpStatus, headers: {}, events: known.events ?? [], output: [], bodyNote: note },
    rateLimits: null,
    captureErrors: [note],
  };
}
