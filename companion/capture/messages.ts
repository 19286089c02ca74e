/**
 * @module The message protocol between the main thread (forwarding, API, live feed) and the
 * capture worker (parsing, assembly, analysis and the history: store, roll-ups, import and
 * export). Everything crossing is a structured-clone value; bytes are copies of what was forwarded.
 */
import type { ExchangeError, ExchangeSummary, Route } from '../protocol/exchange';
import type { WriteHealth } from '../protocol/api';
import type { LiveItemDelta, LivePreview, LiveUsage } from '../protocol/live';
import type { RateLimits } from '../protocol/ratelimits';
import type { HeaderPairs } from '../http/headers';
import type { FlowInit } from './flow';

export interface WsOpen {
  path: string;
  query: string;
  upstreamUrl: string;
  handshakeHeaders: HeaderPairs;
  upgradeResponseHeaders: HeaderPairs;
  /** When the upstream's 101 arrived. */
  upgradedAt: number;
  route: Route;
}

/**
 * Main thread → worker. `id` names an HTTP flow, `conn` a relayed WebSocket. Times (`at`, the
 * flow's `startedAt`) are the main thread's: the worker may handle a message well after it.
 */
export type ToWorker =
  | { t: 'open'; id: string; init: Omit<FlowInit, 'maxCaptureBytes'> }
  | { t: 'reqChunk'; id: string; chunk: Uint8Array }
  /** The request body ended; `bytes` is its full size, `lost` says why what was sent is not all of it. */
  | { t: 'reqEnd'; id: string; bytes: number; lost: string | null }
  | { t: 'head'; id: string; status: number; headers: HeaderPairs; at: number }
  | { t: 'chunk'; id: string; chunk: Uint8Array; at: number }
  | { t: 'incomplete'; id: string; reason: string }
  | { t: 'end'; id: string; at: number; resetBy?: string }
  | { t: 'fail'; id: string; status: 'aborted' | 'upstream_error'; error: ExchangeError; at: number }
  | { t: 'wsOpen'; conn: number; init: WsOpen }
  | { t: 'wsText'; conn: number; from: 'client' | 'server'; text: string; at: number }
  | { t: 'wsBinary'; conn: number; from: 'client' | 'server'; bytes: number; at: number }
  | { t: 'wsClose'; conn: number; reason: string; at: number }
  | { t: 'capturing'; on: boolean }
  | { t: 'query'; n: number; q: Query }
  /** A call of one history operation (pipeline/history.ts), answered by `answer`. */
  | { t: 'history'; n: number; op: string; args: unknown[] }
  /** What one turn of the main thread's loop sent, in order, as one message (pipeline/host.ts). */
  | { t: 'batch'; messages: ToWorker[] };

export type Query = { q: 'record'; id: string } | { q: 'idle' };

/** Worker → main thread. */
export type FromWorker =
  /** Bytes the worker has consumed, freeing room in the bounded channel. */
  | { t: 'ack'; bytes: number }
  | { t: 'started'; summary: ExchangeSummary }
  /** New text of each output item (bounded per item), the row preview and the estimate so far. */
  | { t: 'progress'; id: string; events: number; items: LiveItemDelta[]; preview: LivePreview | null; chars: number; tokens: number }
  /** Finished and stored (HTTP rate-limit headers are applied now; WebSocket readings came as they arrived). */
  | { t: 'stored'; summary: ExchangeSummary; rateLimits: RateLimits | null }
  /** Analysed (or not, `summary` as stored then): the exchange is complete for clients; `usage` after a model exchange. */
  | { t: 'analysed'; id: string; kind: 'model' | 'other'; summary: ExchangeSummary | null; usage: LiveUsage | null }
  /**
   * Stored summaries that changed (a sub-agent's nickname learned later, a recomputed analysis);
   * `usage` when the change moved the totals.
   */
  | { t: 'updated'; summaries: ExchangeSummary[]; usage: LiveUsage | null }
  /**
   * Exchanges an import added (rollouts, JSONL), a page of ids at a time, posted before the
   * import's answer; `last` on the import's final page. Only when `announceImports` is set (the
   * OTLP export sends them as spans).
   */
  | { t: 'imported'; ids: string[]; last: boolean }
  | { t: 'rateLimits'; rateLimits: RateLimits }
  | { t: 'wsTurn'; conn: number; turnId: string | null; open: boolean; clientMessages: number }
  | { t: 'stats'; stats: WorkerStats }
  | { t: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string }
  /** The answer to a query or history call; `error` when the call threw. */
  | { t: 'answer'; n: number; value: unknown; error?: string }
  /** What one turn of the worker's loop posted, in order, as one message (worker.ts). */
  | { t: 'batch'; messages: FromWorker[] };

export interface WorkerStats {
  addonFailures: Record<string, number>;
  lastFailure: string | null;
  analysisFailures: number;
  priceErrors: string[];
  /** How the store's writing goes, after its latest write (null until it is open); no counts, which cost a scan. */
  store: WriteHealth | null;
}

/** What the worker is started with. */
export interface WorkerConfig {
  home: string;
  maxCaptureBytes: number;
  configuredWindows: Record<string, number>;
  capturing: boolean;
  logLevel: string;
  /** Extra addon modules (each default-exports a CaptureAddon), run after the built-in ones and before storage. */
  addonModules: string[];
  /** The store's size cap in bytes. */
  maxStoreBytes: number;
  /** Post an `imported` message for what each import adds (`--otlp-include-imported`). */
  announceImports: boolean;
}
