/**
 * @module Imported history (rollouts, JSONL) as spans, with `--otlp-include-imported`. The capture
 * worker names what each import added, a page of ids at a time; this reads the records one by one
 * through the history client and emits their spans with the records' own times, paced by the room
 * in the span queue, so a big import neither fills the queue (dropping live spans) nor sits in
 * memory: what waits is ids (bounded, the oldest dropped and counted), and one record at a time.
 * Never metrics: they count live traffic only.
 */
import { describeError, type Logger } from '../../lib/log';
import type { ExchangeRecord } from '../../protocol/exchange';
import { chatSpan, type SpanSpec } from './spans';
import { TurnTracker } from './turns';

/** Ids waiting to be read; past this the oldest page goes, counted as dropped. */
export const MAX_WAITING_IDS = 100_000;
const ROOM_POLL_MS = 100;

export interface ImportedParts {
  /** The stored record (through the history client). */
  record(id: string): Promise<ExchangeRecord | null>;
  emit(spec: SpanSpec): void;
  /** How many more spans the queue takes now before it drops any. */
  room(): number;
  content: boolean;
  log: Logger;
  /** Records read between checks of the queue's room (at most 2 spans each). */
  page: number;
}

interface Page {
  ids: string[];
  /** The import's final page: its turns are complete once it is read. */
  last: boolean;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export class ImportedSpans {
  private readonly pages: Page[] = [];
  private waitingIds = 0;
  /** Ids dropped because too many were waiting (a backend that did not accept for long). */
  dropped = 0;
  private readonly turns: TurnTracker;
  private running: Promise<void> | null = null;
  private closed = false;
  /**
   * The imported turns' clock: records read so far. A rollout's exchanges arrive together, so a
   * turn whose thread has not shown up for a page of records is over and its root span goes.
   */
  private clock = 0;

  constructor(private readonly p: ImportedParts) {
    this.turns = new TurnTracker(p.emit, p.page);
  }

  add(ids: string[], last: boolean): void {
    if (this.closed) return;
    this.pages.push({ ids, last });
    this.waitingIds += ids.length;
    while (this.waitingIds > MAX_WAITING_IDS && this.pages.length > 1) {
      const old = this.pages.shift()!;
      this.waitingIds -= old.ids.length;
      this.dropped += old.ids.length;
    }
    this.running ??= this.run().finally(() => (this.running = null));
  }

  private async run(): Promise<void> {
    for (let page = this.pages.shift(); page && !this.closed; page = this.pages.shift()) {
      this.waitingIds -= page.ids.length;
      for (let i = 0; i < page.ids.length && !this.closed; i += this.p.page) {
        // Each record makes a chat span and may end a turn (a root span): two at most.
        while (!this.closed && this.p.room() < 2 * this.p.page) await sleep(ROOM_POLL_MS);
        for (const id of page.ids.slice(i, i + this.p.page)) await this.take(id);
        this.turns.sweep(this.clock);
      }
      if (page.last && !this.closed) this.turns.endAll();
    }
  }

  private async take(id: string): Promise<void> {
    let r: ExchangeRecord | null;
    try {
      r = await this.p.record(id);
    } catch (err) {
      this.p.log.warn(`otlp: imported exchange ${id} could not be read: ${describeError(err)}`);
      return;
    }
    this.clock++;
    if (this.closed || !r || r.kind !== 'model') return;
    this.p.emit(chatSpan(r, { content: this.p.content, imported: true }));
    this.turns.add(r, this.clock, true);
  }

  /** Stops reading; the turns already read get their root spans. */
  close(): void {
    this.closed = true;
    this.turns.endAll();
  }
}
