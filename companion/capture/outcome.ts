/**
 * @module How an exchange ended: its status and error from the HTTP status, the assembled
 * stream's terminal event, whether capture saw all of it, and how the connection closed.
 */
import type { ExchangeError, ExchangeKind, ExchangeStatus } from '../protocol/exchange';
import type { ResponseAssembler } from './assembler';

export interface OutcomeFacts {
  kind: ExchangeKind;
  httpStatus: number;
  assembler: ResponseAssembler;
  captureComplete: boolean;
  responseBody: unknown;
  /** A plain HTTP reply (not SSE, not WebSocket): its last byte is its end, with no terminal event after it. */
  nonStreamed: boolean;
  /** How the response broke off, when it did. */
  resetBy?: string;
}

export function outcomeOf(f: OutcomeFacts): { status: ExchangeStatus; error: ExchangeError | null } {
  if (f.httpStatus >= 400) return { status: 'failed', error: httpError(f.httpStatus, f.responseBody) };
  if (f.kind === 'other') {
    if (!f.resetBy) return { status: 'completed', error: null };
    return { status: 'failed', error: { code: 'stream_truncated', message: f.resetBy, upstreamCode: null } };
  }
  const a = f.assembler;
  if (a.terminal) return { status: a.terminal, error: a.error };
  // Forwarded to its last byte, yet too big (or too fast) for capture to keep whole: the reply
  // itself ended normally; only what it said (its status, its usage) is unknown.
  if (f.nonStreamed && !f.resetBy && !f.captureComplete) return { status: 'completed', error: null };
  if (!f.captureComplete)
    return {
      status: 'failed',
      error: {
        code: 'capture_incomplete',
        message: 'the response reached Codex, but capture dropped part of it, so how it ended is unknown',
        upstreamCode: null,
      },
    };
  if (a.error) return { status: 'failed', error: a.error };
  return {
    status: 'failed',
    error: {
      code: 'stream_truncated',
      message: f.resetBy ? `stream closed before response.completed (${f.resetBy})` : 'stream closed before response.completed',
      upstreamCode: null,
    },
  };
}

/** An HTTP error reply: the upstream's own message and code when its body carries them. */
export function httpError(status: number, responseBody: unknown): ExchangeError {
  const body = responseBody as { error?: Record<string, unknown> } | string | undefined;
  const e = body && typeof body === 'object' && body.error && typeof body.error === 'object' ? body.error : null;
  const message =
    typeof e?.message === 'string' && e.message ? e.message : typeof body === 'string' && body ? body.slice(0, 500) : `HTTP ${status}`;
  const upstreamCode = typeof e?.type === 'string' ? e.type : typeof e?.code === 'string' ? e.code : null;
  return { code: `http_${status}`, message, upstreamCode };
}
