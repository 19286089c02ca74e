/**
 * @module The message protocol between the main thread (forwarding, API, live feed) and the
 * capture worker (parsing, assembly, analysis and, later, storage). Everything crossing is a
 * structured-clone value; bytes are copies of what was forwarded.
 */
import type { ExchangeError, ExchangeRecord, ExchangeSummary, Route } from '../protocol/exchange';
import type { ExchangeAnalysis } from '../protocol/analysis';
import type { RateLimits } from '../protocol/ratelimits';
import type { HeaderPairs } from '../http/headers';
import type { FlowInit } from './flow';

export interface WsOpen {
  path: string;
  query: string;
  upstreamUrl: string;
  handshakeHeaders: HeaderPairs;
  upgradeResponseHeaders: HeaderPairs;
  upgradedAt: number;
  route: Route;
}

/** Main thread → worker. `id` names an HTTP flow, `conn` a relayed WebSocket. */
export type ToWorker =
  | { t: 'open'; id: string; init: Omit<FlowInit, 'maxCaptureBytes'> }
  | { t: 'reqChunk'; id: string; chunk: Uint8Array }
  /** The request body ended; `bytes` is its full size, `lost` says why what was sent is not all of it. */
  | { t: 'reqEnd'; id: string; bytes: number; lost: string | null }
  | { t: 'head'; id: string; status: number; headers: HeaderPairs; at: number }
  | { t: 'chunk'; id: string; chunk: Uint8Array }
  | { t: 'incomplete'; id: string; reason: string }
  | { t: 'end'; id: string; resetBy?: string }
  | { t: 'fail'; id: string; status: 'aborted' | 'upstream_error'; error: ExchangeError }
  | { t: 'wsOpen'; conn: number; init: WsOpen }
  | { t: 'wsText'; conn: number; from: 'client' | 'server'; text: string }
  | { t: 'wsBinary'; conn: number; from: 'client' | 'server'; bytes: number }
  | { t: 'wsClose'; conn: number; reason: string }
  | { t: 'capturing'; on: boolean }
  | { t: 'query'; n: number; q: Query }
  | { t: 'reply'; n: number; value: unknown };

export type Query = { q: 'record'; id: string } | { q: 'idle' };

/** Worker → main thread. */
export type FromWorker =
  /** Bytes the worker has consumed, freeing room in the bounded channel. */
  | { t: 'ack'; bytes: number }
  | { t: 'started'; summary: ExchangeSummary }
  | { t: 'progress'; id: string; events: number; textDelta: string; tokens: number }
  /** Finished, to be made durable before anything else is said about it. */
  | { t: 'record'; record: ExchangeRecord }
  | { t: 'analysed'; id: string; analysis: ExchangeAnalysis | null; patch: Partial<ExchangeSummary> | null; kind: 'model' | 'other' }
  | { t: 'nickname'; threadId: string; nickname: string }
  | { t: 'rateLimits'; rateLimits: RateLimits }
  | { t: 'wsTurn'; conn: number; turnId: string | null; open: boolean; clientMessages: number }
  | { t: 'stats'; stats: WorkerStats }
  | { t: 'call'; n: number; c: Call }
  | { t: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string }
  | { t: 'answer'; n: number; value: unknown };

/** What the worker asks the main thread (which still owns the store). */
export type Call = { c: 'threadSummaries'; threadId: string } | { c: 'record'; id: string };

export interface WorkerStats {
  addonFailures: Record<string, number>;
  lastFailure: string | null;
  analysisFailures: number;
  priceErrors: string[];
}

/** What the worker is started with. */
export interface WorkerConfig {
  home: string;
  maxCaptureBytes: number;
  configuredWindows: Record<string, number>;
  capturing: boolean;
  logLevel: string;
  /** Extra addon modules (each default-exports a CaptureAddon), loaded after the built-in ones. */
  addonModules: string[];
}
