/**
 * @module Runs analysis jobs in a worker thread (capture/analysis-worker), so a large request's
 * tokenising and diffing never delays the bytes the proxy is forwarding. The built companion
 * ships the worker as `analysis-worker.mjs` beside its bundle; run from TypeScript sources (tests,
 * development) there is no such file and jobs run in this thread instead.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../lib/log';
import type { AnalysisJob, AnalysisReply } from './analysis-worker';

/** The built worker beside the bundle, if this is the built companion. */
function workerFile(): URL | null {
  const file = new URL('./analysis-worker.mjs', import.meta.url);
  return fs.existsSync(fileURLToPath(file)) ? file : null;
}

export class AnalysisPool {
  private worker: Worker | null = null;
  private next = 1;
  private readonly waiting = new Map<number, (r: AnalysisReply) => void>();
  private fallback = false;

  constructor(private readonly log: Logger) {}

  private start(): Worker | null {
    if (this.worker || this.fallback) return this.worker;
    const file = workerFile();
    if (!file) {
      this.fallback = true;
      this.log.debug('analysis: running from sources, analysing in the main thread');
      return null;
    }
    const w = new Worker(file);
    w.unref();
    w.on('message', (r: AnalysisReply) => {
      this.waiting.get(r.id)?.(r);
      this.waiting.delete(r.id);
    });
    w.on('error', (err) => this.log.error(`analysis worker failed: ${err.message}`));
    w.on('exit', (code) => {
      // Jobs in flight get an error reply; the next job starts a fresh worker.
      for (const [id, reply] of this.waiting) reply({ id, ok: false, error: `analysis worker exited (${code})` });
      this.waiting.clear();
      this.worker = null;
    });
    this.worker = w;
    return w;
  }

  async run(job: Omit<AnalysisJob, 'id'>): Promise<AnalysisReply> {
    const id = this.next++;
    const w = this.start();
    if (!w) return (await import('./analysis-worker')).runJob({ ...job, id });
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      w.postMessage({ ...job, id });
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = null;
  }
}
