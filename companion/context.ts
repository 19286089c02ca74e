/** @module Everything the API, the live feed and the CLI act on, made once by `startCompanion`. */
import type { AddonManager } from './capture/addons';
import type { ExchangeFlow } from './capture/flow';
import type { AnalysisStep } from './capture/analysis-step';
import type { CaptureControl } from './capture/control';
import type { CaptureQueue } from './capture/queue';
import type { RateLimitState } from './capture/ratelimit-state';
import type { Logger } from './lib/log';
import type { ExportStatus, SessionsResponse, UsageResponse } from './protocol/api';
import type { LiveHub } from './live/hub';
import type { Profiles } from './proxy/profiles';
import type { Store } from './store/store';
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
  sessions(): SessionsResponse;
}

export interface CompanionContext {
  home: string;
  log: Logger;
  store: Store;
  hub: LiveHub;
  profiles: Profiles;
  rateLimits: RateLimitState;
  capture: CaptureControl;
  addons: AddonManager;
  queue: CaptureQueue;
  reports: Reports;
  analysis: AnalysisStep;
  /** Exchanges still streaming (not in the store yet), by id. */
  inflight: Map<string, ExchangeFlow>;
  /** Imports of rollouts and JSONL, one at a time. */
  imports: ImportRunner;
  token(): string;
  /** The OTLP export's counters, or null when export is off. */
  exportStatus(): ExportStatus | null;
}
