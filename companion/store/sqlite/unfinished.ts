/**
 * @module Exchanges that began but never ended (the companion was killed while they streamed):
 * they are shown as `aborted`, with the request and the events that were persisted.
 */
import type { CapturedRequest, ExchangeRecord, ExchangeSummary, StreamEvent } from '../../protocol/exchange';

export const INTERRUPTED = 'the companion stopped before this exchange ended; what was captured until then is kept';

/** The summary of an exchange found unfinished on open. */
export function begunSummary(s: ExchangeSummary, events: readonly StreamEvent[]): ExchangeSummary {
  const lastEvent = events.length > 0 ? s.startedAt + events[events.length - 1].t : null;
  return {
    ...s,
    status: s.status === 'streaming' ? 'aborted' : s.status,
    endedAt: s.endedAt ?? lastEvent,
    captureComplete: false,
    error: s.error ?? { code: 'capture_interrupted', message: INTERRUPTED, upstreamCode: null },
  };
}

/** A record built from the summary, the request given to `begin` and the persisted events. */
export function abortedRecord(summary: ExchangeSummary, request: CapturedRequest | null, events: StreamEvent[]): ExchangeRecord {
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
    request: request ?? {
      method: summary.method,
      path: summary.path,
      query: '',
      upstreamUrl: null,
      headers: {},
      bodyBytes: summary.requestBytes ?? 0,
      bodyEncoding: null,
      body: null,
      bodyNote: INTERRUPTED,
    },
    response: { status: summary.httpStatus, headers: {}, events, output: [], bodyNote: INTERRUPTED },
    rateLimits: null,
    captureErrors: [INTERRUPTED],
  };
}
