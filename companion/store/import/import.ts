/**
 * @module Imports history into the store through its public interface (append, summaries), so it
 * keeps working whatever the store's backend: Codex rollouts and JSONL exports of this tool.
 *
 * One exchange is one model response. An exchange already in the store, captured on the wire or
 * imported before, is recognised by its response id (or, without one, by its id, which imports
 * derive from the file's content) and skipped: importing the same files again changes nothing, and
 * a response both captured and found in a rollout is counted once. Bad lines are skipped and
 * counted; a file that cannot be read is reported and the others go on.
 *
 * Each added record gets the analysis a capture gets (cost, cache verdict against the previous
 * exchange of its thread, context, diff), one at a time in the order of its thread, yielding to
 * the event loop after each so that the capture sharing this thread is never held up by an import.
 */
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { describeError } from '../../lib/log';
import { describeIssues } from '../../protocol/issues';
import type { ExchangeAnalysis } from '../../protocol/analysis';
import { ExchangeRecordSchema, type ExchangeRecord, type ExchangeSummary } from '../../protocol/exchange';
import type { ImportReport } from '../../protocol/api';
import type { Store } from '../store';
import { isRolloutFile, readTextFile, rolloutFiles } from './files';
import { parseRollout } from './rollout';

export interface ImportSources {
  /** Codex homes whose `sessions/` and `archived_sessions/` are read. */
  codexHomes?: string[];
  /** Single files: rollouts (`rollout-*.jsonl[.zst]`) or JSONL exports. */
  files?: string[];
}

export interface ImportContext {
  store: Store;
  /**
   * The capture's analysis (pipeline/analysis.ts `AnalysisEngine.run`): null when the record gets
   * none, or when it failed (reported there; the record stays stored without it).
   */
  analyse(record: ExchangeRecord): Promise<{ analysis: ExchangeAnalysis; patch: Partial<ExchangeSummary> } | null>;
  /** Response ids of exchanges still being captured (not in the store yet). */
  inflightResponseIds?: () => Iterable<string | null>;
  /**
   * Told the ids of what was added, a page at a time (at most `ADDED_PAGE`), so a big import is
   * never one list; `last` on the final page of a run that added anything.
   */
  onAdded?: (ids: string[], last: boolean) => void;
}

/** How many added ids `onAdded` is told at once. */
export const ADDED_PAGE = 256;

export function emptyReport(): ImportReport {
  return { files: 0, lines: 0, malformed: 0, exchanges: 0, added: 0, duplicates: 0, threads: 0, errors: [], rateLimits: null };
}

/** Parses a JSONL export: one record per line in the documented schema. */
export function parseJsonl(text: string): { records: ExchangeRecord[]; malformed: number; lines: number; errors: string[] } {
  const records: ExchangeRecord[] = [];
  const errors: string[] = [];
  let malformed = 0;
  let lines = 0;
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    lines++;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      malformed++;
      return;
    }
    const r = ExchangeRecordSchema.safeParse(json);
    if (r.success) records.push(r.data);
    else {
      malformed++;
      if (errors.length < 5) errors.push(`line ${i + 1}: ${describeIssues(r.error, 'record')}`);
    }
  });
  return { records, malformed, lines, errors };
}

export class Importer {
  private unannounced: string[] = [];
  private announced = false;

  constructor(private readonly ctx: ImportContext) {}

  private isKnown(r: ExchangeRecord): boolean {
    if (this.ctx.store.summary(r.id)) return true;
    if (!r.responseId) return false;
    // One index lookup: a history of months is never read to know what it holds.
    if (this.ctx.store.hasResponse(r.responseId)) return true;
    for (const id of this.ctx.inflightResponseIds?.() ?? []) if (id === r.responseId) return true;
    return false;
  }

  /**
   * Appends the records not yet known, counting them in `report`, and analyses each one right
   * after it is stored, so the next of its thread finds it as its previous. A record that comes
   * with its analysis (a JSONL export) keeps it: that is what was exported. Then the exchanges
   * already stored right after an added one in its thread (a capture after a gap the import
   * filled) are analysed again: their previous is now the added one.
   */
  async add(records: ExchangeRecord[], report: ImportReport): Promise<void> {
    const added: ExchangeRecord[] = [];
    for (const r of records) {
      report.exchanges++;
      if (this.isKnown(r)) {
        report.duplicates++;
        continue;
      }
      await this.ctx.store.append(r);
      report.added++;
      added.push(r);
      if (r.rateLimits && r.rateLimits.observedAt >= (report.rateLimits?.observedAt ?? -Infinity)) report.rateLimits = r.rateLimits;
      if (!r.analysis) {
        const out = await this.ctx.analyse(r);
        if (out) await this.ctx.store.attachAnalysis(r.id, out.analysis, out.patch);
      }
      // Announced once analysed: the OTLP export reads the record, its cost included.
      if (this.ctx.onAdded) {
        this.unannounced.push(r.id);
        if (this.unannounced.length >= ADDED_PAGE) this.announce(false);
      }
      await yieldToLoop();
    }
    // One look-up per added record, each followed by a yield like the appends above.
    const ids = new Set(added.map((r) => r.id));
    for (const r of added) {
      const id = this.successor(r);
      if (id && !ids.has(id)) {
        ids.add(id); // analysed once, however many added records it follows
        const next = await this.ctx.store.get(id);
        const out = next && (await this.ctx.analyse(next));
        if (out) await this.ctx.store.attachAnalysis(id, out.analysis, out.patch);
      }
      await yieldToLoop();
    }
  }

  /** The id of the model exchange stored right after `r` in its thread, or null. */
  private successor(r: ExchangeRecord): string | null {
    if (!r.threadId) return null;
    const later = (s: ExchangeSummary) => s.startedAt > r.startedAt || (s.startedAt === r.startedAt && s.id > r.id);
    const page = this.ctx.store.list({ thread: r.threadId, since: r.startedAt, sort: 'time', order: 'asc', limit: 50 });
    return page.items.find((s) => s.kind === 'model' && later(s))?.id ?? null;
  }

  private announce(last: boolean): void {
    if (!this.unannounced.length && !(last && this.announced)) return;
    const ids = this.unannounced;
    this.unannounced = [];
    this.announced = true;
    this.ctx.onAdded?.(ids, last);
  }

  async importFile(file: string, report: ImportReport): Promise<void> {
    let text: string;
    try {
      text = readTextFile(file);
    } catch (err) {
      report.errors.push(`${file}: ${describeError(err)}`);
      return;
    }
    report.files++;
    if (isRolloutFile(file)) {
      const parsed = parseRollout(text, { file: path.basename(file) });
      report.lines += parsed.lines;
      report.malformed += parsed.malformed;
      if (!parsed.thread) {
        if (parsed.lines > 0) report.errors.push(`${file}: no session_meta line, so no thread to file its exchanges under`);
        return;
      }
      report.threads++;
      await this.add(parsed.records, report);
      return;
    }
    const parsed = parseJsonl(text);
    report.lines += parsed.lines;
    report.malformed += parsed.malformed;
    for (const e of parsed.errors) report.errors.push(`${file} ${e}`);
    // Oldest first, as the analysis needs each thread in order (exports are; other files may not be).
    await this.add(
      parsed.records.sort((a, b) => a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      report,
    );
  }

  async run(sources: ImportSources): Promise<ImportReport> {
    const report = emptyReport();
    const files = [...(sources.codexHomes ?? []).flatMap(rolloutFiles), ...(sources.files ?? [])];
    try {
      for (const f of files) await this.importFile(f, report);
    } finally {
      // What was stored is announced even if a later file threw.
      this.announce(true);
    }
    return report;
  }
}

export function importHistory(ctx: ImportContext, sources: ImportSources): Promise<ImportReport> {
  return new Importer(ctx).run(sources);
}
