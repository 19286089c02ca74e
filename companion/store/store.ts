/**
 * @module The durable store: one SQLite database (`store.db` in the state directory, WAL).
 * Every write is a transaction queued in order (sqlite/write-queue.ts: a full disk holds writes
 * in memory and retries them; capture never blocks). Nothing here depends on the thread it runs
 * in: every method takes and returns plain data, so the store can sit behind a message port in
 * a worker thread.
 *
 * An exchange can be written twice: `begin` when it starts (a crash then leaves it `aborted`,
 * with the events `appendEvents` persisted) and `append` when it ends.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { DEFAULT_MAX_STORE_BYTES } from '../defaults';
import type { CapturedRequest, ExchangeRecord, ExchangeSummary, StreamEvent } from '../protocol/exchange';
import type { WriteHealth } from '../protocol/api';
import type { Logger } from '../lib/log';
import { ensureHome } from './layout';
import { columnsOf, sessionKey, type Row } from './sqlite/columns';
import { commonPrefix, itemsByHash } from './codec';
import { begunJson, readBegun } from './sqlite/begun';
import { Items } from './sqlite/items';
import {
  deflate,
  inflateJson,
  packRecord,
  readTransient,
  transientJson,
  unpackRecord,
  type PackedRecord,
  type StoredBody,
} from './sqlite/pack';
import {
  afterSql,
  decodeCursor,
  encodeCursor,
  filterSql,
  orderOf,
  textCondition,
  textProbe,
  type ExchangeFilter,
  type ListQuery,
  type Sql,
} from './sqlite/query';
import { FEW_ROWS, gatherHits, MATCH_CAP, WALK_ROWS, type TextHits } from './sqlite/search';
import { configure, migrate } from './sqlite/schema';
import { WriteQueue, RETRY_DELAY_MS, type Write } from './sqlite/write-queue';
import { abortedRecord, begunSummary } from './sqlite/unfinished';
import type { RollupTotals } from './sqlite/measures';
import {
  Reports,
  type DailyQuery,
  type DayRow,
  type SessionPage,
  type SessionQuery,
  type Totals,
  type TotalsQuery,
} from './sqlite/reports';

export type { ListQuery, ExchangeFilter } from './sqlite/query';
export type { SortKey } from './sqlite/columns';
export type { DailyQuery, DayRow, SessionPage, SessionQuery, SessionRow, Totals, TotalsQuery } from './sqlite/reports';

export interface ListPage {
  items: ExchangeSummary[];
  /** The old cursor (an id) for the default order; null on the last page. */
  nextBefore: string | null;
  /** Opaque cursor for the next page in the asked order; null on the last page. */
  nextCursor: string | null;
  /** How many exchanges match the filters (with a search, at most the match cap), and how many are stored. */
  matched: number;
  /** True when a search found more than the cap: `matched` is then the cap, a lower bound. */
  matchedCapped: boolean;
  stored: number;
}

export interface StoreStats {
  exchanges: number;
  sessions: number;
  bytes: number;
  /** Writes (records, analyses, updates) that did not reach the disk when made; each counts once. */
  writeErrors: number;
  /** True while writes fail; false again once every pending write is on disk. */
  writeFailing: boolean;
  /** The latest failure, and when writing worked again after it (null while it still fails). */
  lastWriteError: { message: string; at: number; recoveredAt: number | null } | null;
  /** Writes waiting after a failed write. */
  pendingWrites: number;
  /** Records given up on because the pending queue overflowed. */
  lostRecords: number;
  /** Always 0: SQLite has no torn or corrupt lines (kept for the status shape of 0.1.0). */
  corruptLines: number;
  tornBytes: number;
}

export interface StoreOptions {
  home: string;
  log: Logger;
  /** Size cap in bytes past which the oldest sessions are pruned. */
  maxBytes?: number;
  retryDelayMs?: { first: number; max: number };
  /** Search counts are exact up to this many matches (default MATCH_CAP; tests choose a small one). */
  matchCap?: number;
  /** Rows a search past the cap checks for its page before gathering every match (default WALK_ROWS). */
  walkRows?: number;
  /** Other filters leaving at most this many rows search them row by row (default FEW_ROWS). */
  fewRows?: number;
}

/** A row of a page: its summary and its cursor. */
type PageRow = { summary: string; k: number | string; id: string };

/** Events of a streaming exchange are written at most this long after they arrived. */
export const EVENT_FLUSH_MS = 200;
export const DB_FILE = 'store.db';

/** Stores open in this process, so a new one never takes another's streaming exchanges for a crash's. */
const OPEN_STORES = new Set<string>();

interface Memory {
  summary: ExchangeSummary;
  record: ExchangeRecord | null;
}

export class Store {
  readonly database: Database.Database;
  private readonly items: Items;
  private readonly writes: WriteQueue;
  /** Exchanges whose writes wait (a failed write): served from here until they are on disk. */
  private readonly memory = new Map<string, Memory>();
  private readonly events = new Map<string, StreamEvent[]>();
  /** Rows of exchanges begun, waiting for the flush window (see `begin`), with their session. */
  private readonly begun = new Map<string, { session: string; write: Write }>();
  private eventTimer: NodeJS.Timeout | null = null;
  /** Finished records packed in this turn of the loop, written together at its end (see `appendMany`). */
  private finishing: { packed: PackedRecord[]; written: Promise<void>; write: () => void } | null = null;
  private readonly instance = randomUUID();
  private readonly reports: Reports;
  private closed = false;
  maxBytes: number;
  private readonly matchCap: number;
  private readonly walkRows: number;
  private readonly fewRows: number;

  private constructor(private readonly opts: StoreOptions) {
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_STORE_BYTES;
    this.matchCap = opts.matchCap ?? MATCH_CAP;
    this.walkRows = opts.walkRows ?? WALK_ROWS;
    this.fewRows = opts.fewRows ?? FEW_ROWS;
    ensureHome(opts.home);
    const file = path.join(opts.home, DB_FILE);
    // Created owner-only before SQLite opens it: SQLite gives its WAL and shared-memory files the same mode.
    fs.closeSync(fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600));
    fs.chmodSync(file, 0o600);
    this.database = new Database(file);
    configure(this.database);
    migrate(this.database, opts.home);
    this.items = new Items(this.database);
    this.reports = new Reports(this.database, (sql) => this.stmt(sql));
    this.writes = new WriteQueue(
      opts.log,
      opts.retryDelayMs ?? RETRY_DELAY_MS,
      (w) => {
        for (const id of w.ids ?? [w.id]) if (!this.writes.has(id)) this.memory.delete(id);
      },
      () => {
        // Records still gathering for their transaction are served from memory until it runs.
        for (const id of this.memory.keys()) if (!this.finishing?.packed.some((p) => p.summary.id === id)) this.memory.delete(id);
        this.pruneIfNeeded();
      },
    );
    OPEN_STORES.add(this.instance);
  }

  /** Opens (or creates) the store in `home`; exchanges a crashed companion left streaming become `aborted`. */
  static open(opts: StoreOptions): Store {
    const store = new Store(opts);
    store.recoverUnfinished();
    return store;
  }

  // ——— writing ———

  /**
   * Writes the row of an exchange that just started (status `streaming`), with its request if
   * known, within EVENT_FLUSH_MS, before its first events: the row a companion killed mid-stream
   * leaves `aborted`. An exchange that ends sooner is written once, finished: the begun row was
   * a second transaction per exchange, as many pages as the record's, written the moment a
   * request arrives, when forwarding is busiest.
   */
  begin(summary: ExchangeSummary, request: CapturedRequest | null = null): void {
    const row = { ...columnsOf(summary), ended: 0, owner_pid: process.pid, owner: this.instance };
    this.begun.set(summary.id, {
      session: sessionKey(summary.sessionId),
      write: {
        id: summary.id,
        kind: 'begin',
        run: () =>
          this.database.transaction(() => {
            const added = this.stmt(`INSERT INTO exchanges (${cols(row)}) VALUES (${marks(row)}) ON CONFLICT (id) DO NOTHING`).run(
              ...vals(row),
            );
            if (added.changes === 0) return;
            this.stmt('INSERT INTO bodies (rowid, summary, begun) VALUES (?, ?, ?)').run(
              added.lastInsertRowid,
              JSON.stringify(summary),
              request ? begunJson(request, { base: this.inputBase(summary), has: (h) => this.items.has(h) }) : null,
            );
          })(),
      },
    });
    this.flushSoon();
  }

  /** The thread's latest stored exchange and its input hashes: what a request of the thread extends. */
  private inputBase(s: ExchangeSummary): { id: string; input: (string | null)[] } | null {
    const id = this.lastOfThread({ session: sessionKey(s.sessionId), thread: s.threadId }, s.id);
    const input = id ? this.items.inputOf(id) : null;
    return id && input ? { id, input } : null;
  }

  /** Persists events of a streaming exchange, batched: on disk within EVENT_FLUSH_MS. */
  appendEvents(id: string, events: readonly StreamEvent[]): void {
    if (events.length === 0) return;
    const list = this.events.get(id) ?? [];
    list.push(...events);
    this.events.set(id, list);
    this.flushSoon();
  }

  private flushSoon(): void {
    this.eventTimer ??= setTimeout(() => this.flushPending(), EVENT_FLUSH_MS);
    this.eventTimer.unref();
  }

  /** Writes the begun rows and events waiting in memory now (also on close); rows first, which events need. */
  flushPending(): void {
    if (this.eventTimer) clearTimeout(this.eventTimer);
    this.eventTimer = null;
    for (const { write } of this.begun.values()) this.push(write);
    this.begun.clear();
    for (const [id, list] of this.events) {
      const chunk = transientJson(list);
      this.push({
        id,
        kind: 'events',
        run: () => {
          // Only for an exchange begun and not ended: a late batch must not outlive its record.
          this.stmt('INSERT INTO exchange_events (exchange_id, chunk) SELECT id, ? FROM exchanges WHERE id = ? AND ended = 0').run(
            chunk,
            id,
          );
        },
      });
    }
    this.events.clear();
  }

  /**
   * Stores a finished exchange (replacing its begun row). Never throws: failures are counted and
   * retried. A very large record is compressed on the thread pool first.
   */
  async append(record: ExchangeRecord): Promise<void> {
    return this.appendMany([record]);
  }

  /**
   * Stores finished exchanges (an import, a migration, a generator, or one captured). Records
   * that finish in the same turn of the loop share one transaction, written at its end: under
   * concurrent turns each exchange's own commit (WAL frames, the search index's new segment)
   * was the largest part of the worker's time per exchange. Resolves once the write ran, or
   * waits in the queue after a failure.
   */
  async appendMany(records: readonly ExchangeRecord[]): Promise<void> {
    if (records.length === 0) return;
    const packed: PackedRecord[] = [];
    for (const record of records) {
      this.events.delete(record.id);
      this.begun.delete(record.id);
      const p = await packRecord(record);
      this.memory.set(record.id, { summary: p.summary, record });
      packed.push(p);
    }
    if (this.closed) return;
    const batch = (this.finishing ??= this.gather());
    batch.packed.push(...packed);
    return batch.written;
  }

  /** A new batch of finished records, queued as one write at the end of this turn (or before any other write). */
  private gather(): NonNullable<Store['finishing']> {
    let done!: () => void;
    const written = new Promise<void>((resolve) => (done = resolve));
    const batch = {
      packed: [] as PackedRecord[],
      written,
      write: () => {
        if (this.finishing !== batch) return;
        this.finishing = null;
        const { packed } = batch;
        if (packed.length > 0)
          this.push({
            id: packed.length === 1 ? packed[0].summary.id : `${packed[0].summary.id}…${packed[packed.length - 1].summary.id}`,
            kind: 'record',
            ids: packed.map((p) => p.summary.id),
            run: () => this.database.transaction(() => packed.forEach((p) => this.writeRecord(p)))(),
          });
        done();
      },
    };
    setImmediate(batch.write);
    return batch;
  }

  private writeRecord(packed: PackedRecord): void {
    const summary = packed.summary;
    const key = { session: sessionKey(summary.sessionId), thread: summary.threadId };
    let input: { base: string | null; keep: number; add: string[] } | null = null;
    if (packed.inputHashes) {
      const last = this.lastOfThread(key, summary.id);
      const prev = last ? this.items.inputOf(last) : null;
      const keep = prev ? commonPrefix(prev, packed.inputHashes) : 0;
      input = keep > 0 ? { base: last, keep, add: packed.inputHashes.slice(keep) } : { base: null, keep: 0, add: packed.inputHashes };
    }
    const row: Row = {
      ...columnsOf(summary),
      ended: 1,
      owner_pid: null,
      owner: null,
      title: packed.context.title,
      cwd: packed.context.cwd,
      input_base: input?.base ?? null,
      input_keep: input?.keep ?? 0,
      input_add: input ? input.add.join(',') : null,
      analysis_version: packed.versions.analysis,
      prices_version: packed.versions.prices,
    };
    const names = Object.keys(row);
    const updates = names.filter((n) => n !== 'id').map((n) => `${n} = excluded.${n}`);
    this.stmt(
      `INSERT INTO exchanges (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`,
    ).run(...vals(row));
    const rowid = this.rowidOf(summary.id);
    this.stmt(
      `INSERT INTO bodies (rowid, summary, payload, analysis, begun) VALUES (?, ?, ?, ?, NULL)
       ON CONFLICT (rowid) DO UPDATE SET summary = excluded.summary, payload = excluded.payload, analysis = excluded.analysis, begun = NULL`,
    ).run(rowid, JSON.stringify(summary), packed.payload, packed.analysis);
    this.items.put(rowid, key.session, [...(input?.add ?? []), ...packed.extra], packed.items);
    this.stmt('DELETE FROM exchange_events WHERE exchange_id = ?').run(summary.id);
    if (packed.inputHashes) this.items.remember(summary.id, packed.inputHashes);
  }

  /** Stores an exchange's analysis and the summary fields derived from it (cost, cache brief, facts). */
  attachAnalysis(id: string, analysis: NonNullable<ExchangeRecord['analysis']>, patch: Partial<ExchangeSummary>): Promise<void> {
    const blob = deflate(JSON.stringify(analysis));
    this.patch(id, patch, 'analysis', analysis, () => {
      this.stmt('UPDATE bodies SET analysis = ? WHERE rowid = (SELECT rowid FROM exchanges WHERE id = ?)').run(blob, id);
      this.setVersions(id, { analysis: analysis.version, prices: analysis.pricesVersion });
    });
    return Promise.resolve();
  }

  /**
   * Marks an exchange's analysis as of these versions without a new one (its analysis failed):
   * it is tried again when a version changes, not on every start.
   */
  markAnalysed(id: string, versions: { analysis: number; prices: string }): void {
    this.push({ id, kind: 'analysis', run: () => this.setVersions(id, versions) });
  }

  private setVersions(id: string, v: { analysis: number | null; prices: string | null }): void {
    this.stmt('UPDATE exchanges SET analysis_version = ?, prices_version = ? WHERE id = ?').run(v.analysis, v.prices, id);
  }

  /** Applies later facts about an exchange (e.g. a sub-agent's nickname) to its summary. */
  update(id: string, patch: Partial<ExchangeSummary>): Promise<void> {
    this.patch(id, patch, 'update', undefined, () => undefined);
    return Promise.resolve();
  }

  private patch(
    id: string,
    patch: Partial<ExchangeSummary>,
    kind: 'analysis' | 'update',
    analysis: ExchangeRecord['analysis'],
    also: () => void,
  ): void {
    const m = this.memory.get(id);
    if (m) {
      m.summary = { ...m.summary, ...patch };
      if (m.record) m.record = { ...m.record, ...patch, ...(analysis ? { analysis } : {}) };
    } else if (!this.storedSummary(id)) return;
    this.push({
      id,
      kind,
      run: () =>
        this.database.transaction(() => {
          const current = this.storedSummary(id);
          if (!current) return;
          this.writeSummary({ ...current, ...patch });
          also();
        })(),
    });
  }

  /**
   * Sets the columns of a summary that differ from the stored row, and nothing else: an index,
   * the search index and the roll-ups are rewritten only when a column they read changed (an
   * analysis moves five or so of them, never the search text).
   */
  private writeSummary(s: ExchangeSummary): void {
    const row = columnsOf(s);
    const stored = this.stmt<Row>('SELECT * FROM exchanges WHERE id = ?').get(s.id);
    const changed = Object.keys(row).filter((n) => n !== 'id' && (!stored || stored[n] !== row[n]));
    if (changed.length > 0)
      this.stmt(`UPDATE exchanges SET ${changed.map((n) => `${n} = ?`).join(', ')} WHERE id = ?`).run(...changed.map((n) => row[n]), s.id);
    this.stmt('UPDATE bodies SET summary = ? WHERE rowid = (SELECT rowid FROM exchanges WHERE id = ?)').run(JSON.stringify(s), s.id);
  }

  private push(w: Write): void {
    if (this.closed) return;
    // Writes run in the order they were asked for: records gathering for this turn's transaction go first.
    if (w.kind !== 'record') this.finishing?.write();
    this.writes.push(w);
  }

  /** The newest exchange of a thread before `id`, whose input the next one extends. */
  private lastOfThread(key: { session: string; thread: string | null }, id: string): string | null {
    const row = this.stmt<{ id: string }>(
      `SELECT id FROM exchanges WHERE session_key = ? AND thread_id IS ? AND id <> ? AND ended = 1 AND (input_add IS NOT NULL OR input_base IS NOT NULL)
       ORDER BY started_at DESC, id DESC LIMIT 1`,
    ).get(key.session, key.thread, id);
    return row?.id ?? null;
  }

  /** Exchanges a companion left streaming when it stopped: `aborted`, keeping what was captured. */
  private recoverUnfinished(): void {
    const rows = this.stmt<{ id: string; summary: string; owner_pid: number | null; owner: string | null }>(
      'SELECT e.id, b.summary, e.owner_pid, e.owner FROM exchanges e JOIN bodies b ON b.rowid = e.rowid WHERE e.ended = 0',
    ).all();
    const orphans = rows.filter((r) => !(r.owner && OPEN_STORES.has(r.owner)) && !(r.owner_pid !== process.pid && alive(r.owner_pid)));
    if (orphans.length === 0) return;
    this.database.transaction(() => {
      for (const r of orphans) {
        this.writeSummary(begunSummary(JSON.parse(r.summary) as ExchangeSummary, this.eventsOf(r.id)));
        this.stmt('UPDATE exchanges SET ended = 1 WHERE id = ?').run(r.id);
      }
    })();
    this.opts.log.warn(`store: ${orphans.length} exchange(s) were streaming when the companion stopped; kept as aborted`);
  }

  private eventsOf(id: string): StreamEvent[] {
    return this.stmt<{ chunk: string | Buffer }>('SELECT chunk FROM exchange_events WHERE exchange_id = ? ORDER BY rowid')
      .all(id)
      .flatMap((r) => readTransient<StreamEvent[]>(r.chunk));
  }

  // ——— reading ———

  summary(id: string): ExchangeSummary | null {
    return this.memory.get(id)?.summary ?? this.storedSummary(id);
  }

  private storedSummary(id: string): ExchangeSummary | null {
    const row = this.stmt<{ summary: string }>('SELECT b.summary FROM exchanges e JOIN bodies b ON b.rowid = e.rowid WHERE e.id = ?').get(
      id,
    );
    return row ? (JSON.parse(row.summary) as ExchangeSummary) : null;
  }

  /**
   * Ids of ended, captured model exchanges whose analysis is not of these versions (or missing),
   * oldest first, `limit` after `after`: what a new release or an edited price table must
   * recompute. Imported rollouts have no analysis (their cost is priced on import).
   */
  outdatedAnalyses(current: { analysis: number; prices: string }, after: string | null, limit: number): string[] {
    return this.stmt<{ id: string }>(
      `SELECT id FROM exchanges WHERE id > ? AND kind = 'model' AND source = 'captured' AND ended = 1
         AND (analysis_version IS NOT ? OR prices_version IS NOT ?) ORDER BY id LIMIT ?`,
    )
      .all(after ?? '', current.analysis, current.prices, limit)
      .map((r) => r.id);
  }

  /** Whether an exchange carrying model response `responseId` is stored (captured or imported). */
  hasResponse(responseId: string): boolean {
    // Records not on disk yet (gathering for their turn's transaction, or held by a failed write) count.
    for (const m of this.memory.values()) if (m.summary.responseId === responseId) return true;
    return this.stmt<{ one: number }>('SELECT 1 AS one FROM exchanges WHERE response_id = ? LIMIT 1').get(responseId) !== undefined;
  }

  /** Stored summaries, oldest first (by id), in pages of `limit` after `after`. */
  summariesPage(after: string | null, limit = 1000): ExchangeSummary[] {
    return this.stmt<{ summary: string }>(
      'SELECT b.summary FROM exchanges e JOIN bodies b ON b.rowid = e.rowid WHERE e.id > ? ORDER BY e.id LIMIT ?',
    )
      .all(after ?? '', limit)
      .map((r) => JSON.parse(r.summary) as ExchangeSummary);
  }

  /** All stored summaries, oldest first, read a page at a time (a caller may write meanwhile). */
  *summaries(): Iterable<ExchangeSummary> {
    let after: string | null = null;
    for (;;) {
      const page = this.summariesPage(after);
      yield* page;
      if (page.length < 1000) return;
      after = page[page.length - 1].id;
    }
  }

  /**
   * A page of summaries: filtered, searched, sorted by any key, newest (or largest) first by
   * default. The count of a search is exact up to the store's match cap and otherwise that cap
   * with `matchedCapped` (sqlite/search.ts); a page is exact either way.
   */
  list(q: ListQuery): ListPage {
    const { rows, hits, order, limit } = this.pageRows(q);
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    // The hits already passed every filter: a complete set is the exact count, a cut one is past the cap.
    const matched = hits ? (hits.complete ? hits.rowids.size : this.matchCap) : this.count(q);
    return {
      items: page.map((r) => JSON.parse(r.summary) as ExchangeSummary),
      nextBefore: more && order.column === 'e.id' && order.desc ? last.id : null,
      nextCursor: more ? encodeCursor([last.k, last.id]) : null,
      matched,
      matchedCapped: hits !== undefined && !hits.complete,
      stored: this.count({}),
    };
  }

  /**
   * The latest summaries of a thread that may be an exchange's previous one (model exchanges of
   * its session with usage) and started before `until`, newest first by id. Walks the thread's
   * index from its newest row: planned freely, SQLite took the session's index and sorted all of
   * its rows, a cost growing with the session (0.4 ms per exchange at 2,500).
   */
  chainCandidates(threadId: string, sessionId: string | null, until: number, limit: number): ExchangeSummary[] {
    this.finishing?.write();
    return this.stmt<{ summary: string }>(
      `SELECT b.summary FROM exchanges e INDEXED BY exchanges_thread JOIN bodies b ON b.rowid = e.rowid
       WHERE e.thread_id = ? AND e.session_key = ? AND e.kind = 'model' AND e.sort_input >= 0 AND e.started_at < ?
       ORDER BY e.id DESC LIMIT ?`,
    )
      .all(threadId, sessionKey(sessionId), until, limit)
      .map((r) => JSON.parse(r.summary) as ExchangeSummary);
  }

  /** A page's rows in order, one past its `limit` when there are more, and the search hits behind them. */
  private pageRows(q: ListQuery): { rows: PageRow[]; hits: TextHits | undefined; order: ReturnType<typeof orderOf>; limit: number } {
    // A page read in the worker (the nicknames addon's, say) sees the records this turn gathered.
    this.finishing?.write();
    const limit = Math.min(Math.max(q.limit ?? 100, 1), 1000);
    const order = orderOf(q);
    const after = afterSql(order, q.cursor ? decodeCursor(q.cursor) : null, q.before);
    const dir = order.desc ? 'DESC' : 'ASC';
    const inOrder = `${order.column} ${dir}${order.column === 'e.id' ? '' : `, e.id ${dir}`}`;
    const by = `${order.column === 'e.id' ? 'p.id' : 'p.k'} ${dir}${order.column === 'e.id' ? '' : `, p.id ${dir}`}`;
    const hits = q.q ? this.searchHits(q, q.q) : undefined;
    let rows: PageRow[] | null = null;
    if (q.q && hits && !hits.complete) {
      // Many hits: walk the asked order, checking each row's texts, so the page never waits for
      // every match; within a window of rows, or a search common elsewhere but rare in this
      // stretch of the order (old history, say) would check them all.
      rows = this.walkPage(q, textProbe(q.q), after, inOrder, by, limit + 1);
      // The window ran out: the matches are gathered after all, and counted exactly.
      if (!rows) Object.assign(hits, this.searchHits(q, q.q, Number.POSITIVE_INFINITY));
    }
    if (!rows) {
      // Few hits (or all of them): in a temporary table, read by the page.
      const f = filterSql(q, q.q && hits ? textCondition(q.q, this.fillHits(hits.rowids)) : undefined);
      // Rows are chosen and sorted on the narrow table; only the page's summaries are read.
      rows = this.stmt<PageRow>(
        `SELECT b.summary, p.k, p.id FROM (
           SELECT e.rowid AS rid, ${order.column} AS k, e.id AS id FROM exchanges e WHERE ${f.where} AND ${after.where}
           ORDER BY ${inOrder} LIMIT ?
         ) p JOIN bodies b ON b.rowid = p.rid ORDER BY ${by}`,
      ).all(...f.params, ...after.params, limit + 1);
    }
    return { rows, hits, order, limit };
  }

  /**
   * The exchanges matching search `text` and the query's other filters, up to `cap` (more: a cut
   * set). Filters that leave few rows are searched row by row (a session's 200 rows, say, are
   * checked faster than a common fragment's 10^4 hits are read); otherwise from the text index,
   * each hit checked against the filters.
   */
  private searchHits(q: ListQuery, text: string, cap = this.matchCap): TextHits {
    const others = filterSql({ ...q, q: undefined });
    if (others.where !== '1') {
      const few = this.stmt<{ n: number }>(`SELECT count(*) AS n FROM (SELECT 1 FROM exchanges e WHERE ${others.where} LIMIT ?)`).get(
        ...others.params,
        this.fewRows + 1,
      )!.n;
      if (few <= this.fewRows) {
        const probe = textProbe(text);
        const rows = this.stmt<{ rowid: number }>(`SELECT e.rowid FROM exchanges e WHERE ${others.where} AND ${probe.where}`).all(
          ...others.params,
          ...probe.params,
        );
        return { rowids: new Set(rows.map((r) => r.rowid)), complete: true };
      }
    }
    return gatherHits((sql) => this.stmt<{ rowid: number }>(sql), text, cap, others);
  }

  /**
   * Up to `n` rows after the cursor, in order, that pass `probe`, found by checking the rows of a
   * window of the order (the other filters and the cursor applied); null when the window ends
   * before `n` are found and more rows lie past it. The window is a co-routine: the check runs
   * only on the rows pulled until the page is full.
   */
  private walkPage(q: ListQuery, probe: Sql, after: Sql, inOrder: string, by: string, n: number): PageRow[] | null {
    const others = filterSql({ ...q, q: undefined });
    const window = this.walkRows;
    const rows = this.stmt<PageRow>(
      `SELECT b.summary, p.k, p.id FROM (
         SELECT w.rid, w.k, w.id FROM (
           SELECT e.rowid AS rid, ${orderOf(q).column} AS k, e.id AS id, ${probe.where} AS hit FROM exchanges e
           WHERE ${others.where} AND ${after.where} ORDER BY ${inOrder} LIMIT ?
         ) w WHERE w.hit LIMIT ?
       ) p JOIN bodies b ON b.rowid = p.rid ORDER BY ${by}`,
    ).all(...probe.params, ...others.params, ...after.params, window, n);
    if (rows.length === n) return rows;
    const full = this.stmt<{ n: number }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM exchanges e WHERE ${others.where} AND ${after.where} LIMIT ?)`,
    ).get(...others.params, ...after.params, window + 1)!.n;
    return full > window ? null : rows;
  }

  /** Fills the connection's temporary table with search hits; returns its name. */
  private fillHits(rowids: Set<number>): string {
    this.database.exec('CREATE TEMP TABLE IF NOT EXISTS hits (rowid INTEGER PRIMARY KEY)');
    this.stmt('DELETE FROM temp.hits').run();
    this.stmt('INSERT INTO temp.hits (rowid) SELECT value FROM json_each(?)').run(JSON.stringify([...rowids]));
    return 'temp.hits';
  }

  /** How many stored exchanges match. */
  count(f: ExchangeFilter): number {
    const s = filterSql(f);
    return this.stmt<{ n: number }>(`SELECT count(*) AS n FROM exchanges e WHERE ${s.where}`).get(...s.params)!.n;
  }

  /**
   * The full record, with its input, tools and output rebuilt from the stored items; input items
   * that `alongside` carries too (the next request of the thread resends them) are taken from it.
   */
  async get(id: string, alongside?: ExchangeRecord): Promise<ExchangeRecord | null> {
    const m = this.memory.get(id);
    if (m?.record) return m.record;
    const row = this.stmt<{ summary: string; payload: Buffer | null; analysis: Buffer | null; begun: string | Buffer | null }>(
      'SELECT b.summary, b.payload, b.analysis, b.begun FROM exchanges e JOIN bodies b ON b.rowid = e.rowid WHERE e.id = ?',
    ).get(id);
    if (!row) return null;
    const summary = JSON.parse(row.summary) as ExchangeSummary;
    if (!row.payload) {
      const request = row.begun
        ? readBegun(row.begun, {
            baseItems: (base, keep) => this.items.resolve(this.baseItems(base, keep)),
            item: (h) => this.items.resolve([h])[0],
          })
        : null;
      return abortedRecord(summary, request, this.eventsOf(id));
    }
    const body = inflateJson<StoredBody>(row.payload);
    const hashes = this.items.inputOf(id);
    const record = unpackRecord(summary, body, {
      input: hashes ? this.items.resolve(hashes, alongside && itemsByHash(alongside)) : null,
      resolve: (h) => this.items.resolve(h),
    });
    return row.analysis ? { ...record, analysis: inflateJson<NonNullable<ExchangeRecord['analysis']>>(row.analysis) } : record;
  }

  /** The first `keep` input hashes of `base`; null for each it no longer has (unreadable). */
  private baseItems(base: string, keep: number): (string | null)[] {
    const input = this.items.inputOf(base) ?? [];
    return Array.from({ length: keep }, (_, i) => input[i] ?? null);
  }

  // ——— reports ———

  /** Sessions, most recently active first, paged and searchable (sqlite/reports.ts). */
  sessions(q: SessionQuery): SessionPage {
    return this.reports.sessions(q);
  }

  /** Per-day sums in an IANA time zone from the 15-minute roll-ups. */
  daily(q: DailyQuery): DayRow[] {
    return this.reports.daily(q);
  }

  /** Roll-up sums of a session (or of everything), per thread and per model. */
  totals(q: TotalsQuery): Totals {
    return this.reports.totals(q);
  }

  /** Roll-up sums of everything started since a day's start (the live counters' "today"). */
  usageSince(since: number): RollupTotals {
    return this.reports.since(since);
  }

  /**
   * The session of the newest model exchange that has one, among the newest 50 model exchanges
   * (the live counters' "this session"). Read from the narrow table: no summary is parsed.
   */
  latestSession(): string | null {
    const f = filterSql({ kind: 'model' });
    const row = this.stmt<{ session_key: string }>(
      `SELECT session_key FROM (SELECT e.session_key, e.id FROM exchanges e WHERE ${f.where} ORDER BY e.id DESC LIMIT 50)
       WHERE session_key <> '' ORDER BY id DESC LIMIT 1`,
    ).get(...f.params);
    return row ? row.session_key : null;
  }

  /** Roll-up sums of one session (the live counters' "this session"). */
  sessionUsage(sessionId: string | null): RollupTotals {
    return this.reports.session(sessionId);
  }

  /** The most expensive exchanges of a session, a day, or everything. */
  mostExpensive(scope: Scope, limit = 20): ExchangeSummary[] {
    return this.list({ ...this.reports.scope(scope), sort: 'cost', minCost: 0, limit }).items;
  }

  /** Cache misses, the costliest first, of a session, a day, or everything. */
  cacheMissesByCost(scope: Scope, limit = 20): ExchangeSummary[] {
    return this.list({ ...this.reports.scope(scope), sort: 'missCost', miss: true, limit }).items;
  }

  // ——— deleting ———

  /** Deletes a session's exchanges and the items only they used. */
  async deleteSession(sessionId: string): Promise<number> {
    return this.dropSessions([sessionKey(sessionId)]);
  }

  private dropSessions(keys: string[]): number {
    if (keys.length === 0) return 0;
    const set = new Set(keys);
    this.writes.drop((id) => {
      const m = this.memory.get(id);
      return m ? set.has(sessionKey(m.summary.sessionId)) : false;
    });
    for (const [id, m] of this.memory) if (set.has(sessionKey(m.summary.sessionId))) this.memory.delete(id);
    for (const [id, b] of this.begun) if (set.has(b.session)) this.begun.delete(id);
    if (this.finishing) {
      const kept = this.finishing.packed.filter((p) => !set.has(sessionKey(p.summary.sessionId)));
      this.finishing.packed.splice(0, Infinity, ...kept);
    }
    const json = JSON.stringify(keys);
    const inKeys = 'SELECT value FROM json_each(?)';
    let n = 0;
    this.database.transaction(() => {
      this.database.exec('CREATE TEMP TABLE IF NOT EXISTS doomed (item INTEGER PRIMARY KEY)');
      this.stmt(
        `INSERT OR IGNORE INTO doomed SELECT item_rowid FROM item_refs WHERE exchange_rowid IN (SELECT rowid FROM exchanges WHERE session_key IN (${inKeys}))`,
      ).run(json);
      this.stmt(`DELETE FROM item_refs WHERE exchange_rowid IN (SELECT rowid FROM exchanges WHERE session_key IN (${inKeys}))`).run(json);
      this.stmt(`DELETE FROM exchange_events WHERE exchange_id IN (SELECT id FROM exchanges WHERE session_key IN (${inKeys}))`).run(json);
      n = this.stmt(`DELETE FROM exchanges WHERE session_key IN (${inKeys})`).run(json).changes;
      this.stmt(
        'DELETE FROM items WHERE rowid IN (SELECT item FROM doomed) AND NOT EXISTS (SELECT 1 FROM item_refs WHERE item_rowid = items.rowid)',
      ).run();
      this.stmt('DELETE FROM doomed').run();
    })();
    this.items.forget();
    this.giveBack();
    return n;
  }

  /** Deletes everything captured. */
  async clear(): Promise<number> {
    const n = this.count({});
    this.writes.clear();
    this.memory.clear();
    this.events.clear();
    this.begun.clear();
    if (this.finishing) this.finishing.packed.length = 0;
    this.database.transaction(() => {
      for (const t of ['item_refs', 'exchange_events', 'exchanges', 'bodies', 'items']) this.database.exec(`DELETE FROM ${t}`);
    })();
    this.items.forget();
    this.giveBack();
    return n;
  }

  /** Returns freed pages to the file system (auto_vacuum = INCREMENTAL). */
  private giveBack(): void {
    try {
      this.database.pragma('incremental_vacuum');
      this.database.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Space is given back on a later prune; the deletion itself is committed.
    }
  }

  /** Bytes the stored data takes (pages in use; free pages are given back on prune). */
  bytes(): number {
    // One cached statement: this runs after every drained write.
    return this.stmt<{ n: number }>(
      'SELECT (p.page_count - f.freelist_count) * s.page_size AS n FROM pragma_page_count() p, pragma_freelist_count() f, pragma_page_size() s',
    ).get()!.n;
  }

  /** Removes the least recently active sessions until the store fits its cap (never the newest). */
  pruneIfNeeded(): number {
    if (this.bytes() <= this.maxBytes) return 0;
    const byAge = this.stmt<{ session_key: string }>('SELECT session_key FROM sessions ORDER BY last_at, session_key').all();
    byAge.pop();
    let removed = 0;
    for (const s of byAge) {
      if (this.bytes() <= this.maxBytes) break;
      this.opts.log.info(`store: pruned session ${s.session_key || '(none)'} to stay under ${this.maxBytes} bytes`);
      removed += this.dropSessions([s.session_key]);
    }
    return removed;
  }

  /**
   * How writing goes, without counting anything: what the capture worker reports after every
   * exchange. The counts of `stats` scan the exchanges' index, a cost that grows with the history.
   */
  writeHealth(): WriteHealth {
    return { ...this.writes.stats, pendingWrites: this.writes.size };
  }

  stats(): StoreStats {
    return {
      ...this.writeHealth(),
      exchanges: this.count({}),
      sessions: this.stmt<{ n: number }>('SELECT count(*) AS n FROM sessions').get()!.n,
      bytes: this.bytes(),
      corruptLines: 0,
      tornBytes: 0,
    };
  }

  /** Writes what waits (begun rows, events, failed writes) one last time and closes the database. */
  close(): void {
    if (this.closed) return;
    this.finishing?.write();
    this.flushPending();
    this.writes.drain();
    this.writes.stop();
    this.closed = true;
    OPEN_STORES.delete(this.instance);
    this.database.close();
  }

  private rowidOf(id: string): number {
    return this.stmt<{ rowid: number }>('SELECT rowid FROM exchanges WHERE id = ?').get(id)!.rowid;
  }

  private readonly statements = new Map<string, Database.Statement>();
  /** Statements are prepared once per text (SQL built from a query's shape repeats). */
  private stmt<R = unknown>(sql: string): Database.Statement<unknown[], R> {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.database.prepare(sql);
      if (this.statements.size > 500) this.statements.clear();
      this.statements.set(sql, s);
    }
    return s as Database.Statement<unknown[], R>;
  }
}

export type Scope = { session?: string; day?: string; timeZone?: string };

function alive(pid: number | null): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const cols = (row: Row) => Object.keys(row).join(', ');
const marks = (row: Row) =>
  Object.keys(row)
    .map(() => '?')
    .join(', ');
const vals = (row: Row) => Object.values(row);
