/**
 * @module Background recompute, in the capture worker: stored exchanges whose analysis is of
 * another analysis version (a new release) or another price table (an edited `prices.json`) are
 * analysed again, oldest first, a batch at a time. The worker's event loop is given back after
 * every exchange, so capture messages waiting meanwhile go first and capture is never delayed by
 * more than one analysis. Summaries that changed are announced (`updated`, with the live usage
 * once the pass is done), and the roll-ups follow the rewritten summaries (store triggers).
 */
import type { FromWorker } from '../capture/messages';
import { describeError, type Logger } from '../lib/log';
import type { ExchangeSummary } from '../protocol/exchange';
import type { LiveUsage } from '../protocol/live';
import type { Store } from '../store/store';
import type { AnalysisEngine } from './analysis';

/** Exchanges read from the store per query, and announced per `updated` message. */
const BATCH = 50;

export interface RecomputeParts {
  store: Store;
  analysis: AnalysisEngine;
  post(m: FromWorker): void;
  liveUsage(): LiveUsage;
  log: Logger;
  /** True once the history is closing: the pass stops between exchanges. */
  stopped(): boolean;
}

const yieldToCapture = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Recompute {
  private running: Promise<void> | null = null;
  /** Set when versions changed since the pass began: it starts over with the new ones. */
  private again = false;

  constructor(private readonly p: RecomputeParts) {}

  /** Starts a pass, or restarts the running one (versions changed mid-pass). */
  schedule(): void {
    this.again = true;
    this.running ??= this.loop().finally(() => {
      this.running = null;
    });
  }

  /** Resolves once no pass is running (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async loop(): Promise<void> {
    while (this.again && !this.p.stopped()) {
      this.again = false;
      try {
        await this.pass();
      } catch (err) {
        // The analyses stay as they were; the next start or price edit tries again.
        this.p.log.error(`analysis: recomputing stored exchanges failed: ${describeError(err)}`);
      }
    }
  }

  private async pass(): Promise<void> {
    const { store, analysis, post } = this.p;
    const versions = analysis.versions();
    let after: string | null = null;
    let done = 0;
    let changed = 0;
    for (;;) {
      const ids = store.outdatedAnalyses(versions, after, BATCH);
      if (ids.length === 0) break;
      const updated: ExchangeSummary[] = [];
      let interrupted = false;
      for (const id of ids) {
        await yieldToCapture();
        if ((interrupted = this.p.stopped() || this.again)) break;
        const before = store.summary(id);
        const record = await store.get(id);
        if (!before || !record) continue;
        const out = await analysis.rerun(record);
        if (out) await store.attachAnalysis(id, out.analysis, out.patch);
        else store.markAnalysed(id, versions);
        done++;
        const now = store.summary(id);
        if (now && JSON.stringify(now) !== JSON.stringify(before)) updated.push(now);
      }
      after = ids[ids.length - 1];
      changed += updated.length;
      if (updated.length) post({ t: 'updated', summaries: updated, usage: null });
      // The pass that follows (new versions) announces the usage; a closing history needs none.
      if (interrupted) return;
    }
    if (done === 0) return;
    this.p.log.info(
      `analysis: recomputed ${done} stored exchange(s), ${changed} changed (analysis ${versions.analysis}, prices ${versions.prices})`,
    );
    if (changed) post({ t: 'updated', summaries: [], usage: this.p.liveUsage() });
  }
}
