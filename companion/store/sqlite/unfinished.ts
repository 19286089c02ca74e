/**
 * @module Exchanges that began but never ended (the companion was killed while they streamed):
 * they are shown as `aborted`, with the request and the events that were persisted.
 */
import type { CapturedRequest, ExchangeRecord, ExchangeSummary, StreamEvent } from '../../protocol/exchange';
import { recordOfSummary } from '../summary-record';

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
  return recordOfSummary(summary, INTERRUPTED, { request, events });
}
