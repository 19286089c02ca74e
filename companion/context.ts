/** @module Everything the API, the live feed and the CLI act on, made once by `startCompanion`. */
import type { CaptureControl } from './capture/control';
import type { ExchangeRecord, ExchangeSummary } from './protocol/exchange';
import type { RateLimitState } from './store/ratelimit-state';
import type { Logger } from './lib/log';
import type { ExportStatus, SessionReport, UsageResponse } from './protocol/api';
import type { LiveHub } from './live/hub';
import type { LiveText } from './live/live-text';
import type { LivePreview } from './protocol/live';
import type { Profiles } from './proxy/profiles';
import type { HistoryClient } from './pipeline/history-client';
import type { ImportRunner } from './store/import/runner';

export interface UsageQuery {
  session?: string;
  /** Epoch milliseconds, inclusive. */
  since?: number;
  /** Epoch milliseconds, exclusive. */
  until?: number;
}

/** Roll-ups computed from the store by the analysis stage. */
export interface Reports {
  usage(q: UsageQuery): UsageResponse;
  /** One session's report (threads, turns, cache), from that session's exchanges only; null when it has none. */
  session(sessionId: string | null): SessionReport | null;
}

export interface CompanionContext {
  home: string;
  log: Logger;
  /** The history, answered by the capture worker that owns the store. */
  store: HistoryClient;
  hub: LiveHub;
  profiles: Profiles;
  rateLimits: RateLimitState;
  capture: CaptureControl;
  /** Exchanges still streaming (not in the store yet), by id, as the live feed knows them. */
  inflight: Map<string, InflightExchange>;
  /** The full record of an exchange still streaming, as the capture worker holds it now. */
  liveRecord(id: string): Promise<ExchangeRecord | null>;
  captureStats(): CaptureStats;
  /** Resolves once capture has stored what was forwarded so far, or after a short bound. */
  captureSettled(): Promise<void>;
  /** Imports of rollouts and JSONL, one at a time. */
  imports: ImportRunner;
  token(): string;
  /** The OTLP export's counters, or null when export is off. */
  exportStatus(): ExportStatus | null;
}

/** An exchange still streaming: its summary at start and what progress has told since. */
export interface InflightExchange {
  summary: ExchangeSummary;
  events: number;
  /** Characters streamed so far, every kind of delta. */
  chars: number;
  tokens: number;
  preview: LivePreview | null;
  /** The output items' text so far (bounded per item by the capture worker). */
  live: LiveText;
}

/** Capture's health, for the status route. */
export interface CaptureStats {
  addonFailures: Record<string, number>;
  droppedChunks: number;
  analysisFailures: number;
  priceErrors: string[];
}
