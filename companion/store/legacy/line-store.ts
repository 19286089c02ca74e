/**
 * @module The 0.1.0 store, kept to read state directories it wrote (store/migrate-legacy.ts):
 * one folder per session holding an append-only log of exchange
 * lines and the session's content-addressed objects (store/codec.ts explains the split).
 * The log is the truth; the in-memory index of summaries is rebuilt from it on open.
 * A write that fails (full disk, …) is counted once, kept in memory and retried on a timer with
 * backoff; capture never blocks on it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_MAX_STORE_BYTES } from '../../defaults';
import type { ExchangeRecord, ExchangeSummary } from '../../protocol/exchange';
import { describeError, type Logger } from '../../lib/log';
import { commonPrefix, joinRecord, splitRecord, unreadableItem, type Delta, type InputRef, type StoredPayload } from '../codec';
import { bucketName, ensureHome, makePrivate, paths, STORE_FORMAT, writePrivateFile } from '../layout';
import { decodeLine, encodeLine, packJson, packJsonOffThread, unpackJson } from './line-format';
import { LineLog, type LineRef } from './line-log';
import { ObjectStore } from './objects';
import { recordOfSummary } from '../summary-record';

interface Entry {
  summary: ExchangeSummary;
  bucket: Bucket;
  ref: LineRef | null;
  input: InputRef | null;
  /** Kept while the record is not on disk yet (write failed, retry pending). */
  memory: ExchangeRecord | null;
  /** The analysis line, written after the record (analysis is derived and can be recomputed). */
  analysisRef: LineRef | null;
  /** Kept while the analysis line is not on disk yet. */
  analysisMemory: ExchangeRecord['analysis'] | null;
}

interface Bucket {
  name: string;
  dir: string;
  log: LineLog;
  objects: ObjectStore;
  lastActivity: number;
  /** Last stored input per thread, to store the next request as a delta. */
  lastByThread: Map<string, { id: string; hashes: string[]; delta: Delta }>;
}

interface Pending {
  entry: Entry;
  kind: 'record' | 'analysis' | 'update';
  objects: Map<string, string>;
  line: string;
  /** Counted in `writeErrors` already (a write is counted once, however often it is retried). */
  failed?: boolean;
}

export interface ListQuery {
  limit?: number;
  before?: string;
  session?: string;
  thread?: string;
  status?: string;
  kind?: string;
  q?: string;
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
  /** Records waiting to be written after a failed write. */
  pendingWrites: number;
  /** Records given up on because the pending queue overflowed. */
  lostRecords: number;
  corruptLines: number;
  tornBytes: number;
}

const MAX_PENDING = 2000;
/** Retry delays after a failed write: doubling from `first` up to `max`. */
const RETRY_DELAY_MS = { first: 1000, max: 60_000 };
/** Payloads above this (characters of JSON) are compressed off the event loop. */
const LARGE_PAYLOAD = 1024 * 1024;

export interface StoreOptions {
  home: string;
  log: Logger;
  /** Size cap in bytes past which the oldest sessions are pruned. */
  maxBytes?: number;
  retryDelayMs?: { first: number; max: number };
}

export class LineStore {
  private readonly entries = new Map<string, Entry>();
  /** Ids in ascending order (ids sort by start time). */
  private ids: string[] = [];
  private readonly buckets = new Map<string, Bucket>();
  private readonly pending: Pending[] = [];
  private readonly hashCache = new Map<string, (string | null)[]>();
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelay = 0;
  private stats_: Omit<StoreStats, 'exchanges' | 'sessions' | 'bytes' | 'pendingWrites'> = {
    writeErrors: 0,
    writeFailing: false,
    lastWriteError: null,
    lostRecords: 0,
    corruptLines: 0,
    tornBytes: 0,
  };
  maxBytes: number;

  private constructor(private readonly opts: StoreOptions) {
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_STORE_BYTES;
  }

  /** Opens (or creates) the store in `home` and loads every session's index. */
  static open(opts: StoreOptions): LineStore {
    const store = new LineStore(opts);
    store.load();
    return store;
  }

  private load(): void {
    const p = paths(this.opts.home);
    ensureHome(p.home);
    if (fs.existsSync(p.meta)) {
      const meta = JSON.parse(fs.readFileSync(p.meta, 'utf8')) as { format?: number };
      if ((meta.format ?? 0) > STORE_FORMAT) {
        throw new Error(
          `The store in ${p.home} was written by a newer codex-devtools (format ${meta.format}); update codex-devtools or use another --home.`,
        );
      }
    } else {
      writePrivateFile(p.meta, JSON.stringify({ format: STORE_FORMAT }) + '\n');
    }
    for (const name of fs.readdirSync(p.sessions)) {
      const dir = path.join(p.sessions, name);
      if (!fs.statSync(dir).isDirectory()) continue;
      this.loadBucket(name, dir);
    }
    this.ids.sort();
  }

  private openBucket(name: string, dir: string): { bucket: Bucket; lines: (LineRef & { text: string })[] } {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    makePrivate(dir);
    const logFile = path.join(dir, 'log.jsonl');
    const objectsFile = path.join(dir, 'objects.jsonl');
    const opened = LineLog.open(logFile);
    const objects = ObjectStore.open(objectsFile);
    for (const [file, torn] of [
      [logFile, opened.tornBytes],
      [objectsFile, objects.tornBytes],
    ] as const) {
      if (torn === 0) continue;
      this.stats_.tornBytes += torn;
      this.opts.log.warn(`store: cut off a torn final line (${torn} bytes) in ${file}: the companion stopped while writing it`);
    }
    this.stats_.corruptLines += objects.corruptLines;
    const bucket: Bucket = { name, dir, log: opened.log, objects, lastActivity: 0, lastByThread: new Map() };
    this.buckets.set(name, bucket);
    return { bucket, lines: opened.lines };
  }

  private loadBucket(name: string, dir: string): void {
    const { bucket, lines } = this.openBucket(name, dir);
    for (const line of lines) {
      const d = decodeLine<{ t: string; id: string; s: ExchangeSummary; i?: InputRef | null }>(line.text);
      if (!d.ok) {
        this.stats_.corruptLines++;
        this.opts.log.warn(`store: skipped a corrupt line in ${path.join(dir, 'log.jsonl')} at byte ${line.offset} (${d.reason})`);
        continue;
      }
      const v = d.value;
      if (v.t === 'x') {
        this.entries.set(v.id, {
          summary: { ...v.s, facts: v.s.facts ?? null, source: v.s.source ?? 'captured' },
          bucket,
          ref: { offset: line.offset, length: line.length },
          input: v.i ?? null,
          memory: null,
          analysisRef: null,
          analysisMemory: null,
        });
        this.ids.push(v.id);
        bucket.lastActivity = Math.max(bucket.lastActivity, v.s.endedAt ?? v.s.startedAt);
      } else if (v.t === 'u' || v.t === 'a') {
        const e = this.entries.get(v.id);
        if (e) e.summary = { ...e.summary, ...v.s };
        if (e && v.t === 'a') e.analysisRef = { offset: line.offset, length: line.length };
      }
    }
  }

  private bucketFor(sessionId: string | null): Bucket {
    const name = bucketName(sessionId);
    return this.buckets.get(name) ?? this.openBucket(name, path.join(paths(this.opts.home).sessions, name)).bucket;
  }

  /**
   * Stores a finished exchange. Never throws: failures are counted and retried. A typical record
   * is compressed and written before this returns; a very large one (megabytes of events) is
   * compressed on the thread pool first, so it never stalls the forwarding of other traffic.
   */
  async append(record: ExchangeRecord): Promise<void> {
    const bucket = this.bucketFor(record.sessionId);
    const split = splitRecord(record);
    let input: InputRef | null = null;
    if (split.inputHashes) {
      const key = record.threadId ?? record.sessionId ?? '_';
      const last = bucket.lastByThread.get(key);
      const keep = last ? commonPrefix(last.hashes, split.inputHashes) : 0;
      const delta: Delta =
        keep > 0 && last ? { base: last.id, keep, add: split.inputHashes.slice(keep) } : { base: null, keep: 0, add: split.inputHashes };
      input = { ...delta, prev: delta.base && last ? last.delta : null };
      bucket.lastByThread.set(key, { id: record.id, hashes: split.inputHashes, delta });
    }
    const entry: Entry = { summary: split.summary, bucket, ref: null, input, memory: record, analysisRef: null, analysisMemory: null };
    this.insert(entry);
    bucket.lastActivity = Math.max(bucket.lastActivity, record.endedAt ?? record.startedAt);
    const json = JSON.stringify(split.payload);
    const packed = json.length > LARGE_PAYLOAD ? await packJsonOffThread(json) : packJson(json);
    const line = encodeLine({ t: 'x', id: record.id, s: split.summary, i: input, p: packed });
    this.enqueue({ entry, kind: 'record', objects: split.objects, line });
    this.drain();
  }

  /**
   * Stores an exchange's analysis and the summary fields derived from it, after the record itself
   * (so a crash while analysing never costs the capture).
   */
  attachAnalysis(id: string, analysis: NonNullable<ExchangeRecord['analysis']>, patch: Partial<ExchangeSummary>): Promise<void> {
    const e = this.entries.get(id);
    if (!e) return Promise.resolve();
    e.summary = { ...e.summary, ...patch };
    e.analysisMemory = analysis;
    if (e.memory) e.memory = { ...e.memory, ...patch, analysis };
    const payload = packJson(JSON.stringify(analysis));
    this.enqueue({ entry: e, kind: 'analysis', objects: new Map(), line: encodeLine({ t: 'a', id, s: patch, p: payload }) });
    this.drain();
    return Promise.resolve();
  }

  private enqueue(p: Pending): void {
    this.pending.push(p);
    if (this.pending.length > MAX_PENDING) {
      const lost = this.pending.shift()!;
      if (lost.kind === 'record') lost.entry.memory = null;
      else if (lost.kind === 'analysis') lost.entry.analysisMemory = null;
      this.stats_.lostRecords++;
      this.opts.log.error(`store: gave up on exchange ${lost.entry.summary.id}: too many writes pending after failures`);
    }
  }

  /**
   * Writes pending lines in order. On the first failure it stops, counts the writes left behind
   * (once each) and schedules a retry; the next write made meanwhile tries too.
   */
  private drain(): void {
    while (this.pending.length > 0) {
      const p = this.pending[0];
      if (!this.entries.has(p.entry.summary.id)) {
        this.pending.shift(); // deleted before it was written
        continue;
      }
      try {
        p.entry.bucket.objects.putMany(p.objects);
        const [ref] = p.entry.bucket.log.append([p.line]);
        if (p.kind === 'record') {
          p.entry.ref = ref;
          p.entry.memory = null;
        } else if (p.kind === 'analysis') {
          p.entry.analysisRef = ref;
          p.entry.analysisMemory = null;
        }
        this.pending.shift();
      } catch (err) {
        this.writeFailed(err);
        return;
      }
    }
    this.writeRecovered();
    this.pruneIfNeeded();
  }

  private writeFailed(err: unknown): void {
    const message = describeError(err);
    const fresh = this.pending.filter((p) => !p.failed);
    for (const p of fresh) p.failed = true;
    this.stats_.writeErrors += fresh.length;
    this.stats_.writeFailing = true;
    this.stats_.lastWriteError = { message, at: Date.now(), recoveredAt: null };
    if (fresh.length > 0) {
      const ids = [...new Set(fresh.map((p) => p.entry.summary.id))].join(', ');
      this.opts.log.error(
        `store: could not write exchange ${ids} (${message}); capture continues in memory and writing is retried until it works`,
      );
    }
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    const { first, max } = this.opts.retryDelayMs ?? RETRY_DELAY_MS;
    this.retryDelay = this.retryDelay ? Math.min(this.retryDelay * 2, max) : first;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.drain();
    }, this.retryDelay);
    // A pending retry must not keep a finished process alive (close() makes the last attempt).
    this.retryTimer.unref();
  }

  private stopRetrying(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryDelay = 0;
  }

  private writeRecovered(): void {
    this.stopRetrying();
    if (!this.stats_.writeFailing) return;
    this.stats_.writeFailing = false;
    if (this.stats_.lastWriteError) this.stats_.lastWriteError.recoveredAt = Date.now();
    this.opts.log.info('store: writing works again; every pending write is on disk');
  }

  /** Makes a last attempt at pending writes and stops retrying. */
  close(): void {
    this.drain();
    this.stopRetrying();
  }

  /** Appends later facts about an exchange (e.g. a sub-agent's nickname) to its summary. */
  update(id: string, patch: Partial<ExchangeSummary>): Promise<void> {
    const e = this.entries.get(id);
    if (!e) return Promise.resolve();
    e.summary = { ...e.summary, ...patch };
    if (e.memory) e.memory = { ...e.memory, ...patch };
    this.enqueue({ entry: e, kind: 'update', objects: new Map(), line: encodeLine({ t: 'u', id, s: patch }) });
    this.drain();
    return Promise.resolve();
  }

  private insert(entry: Entry): void {
    const id = entry.summary.id;
    this.entries.set(id, entry);
    if (this.ids.length === 0 || this.ids[this.ids.length - 1] < id) this.ids.push(id);
    else {
      let lo = 0;
      let hi = this.ids.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.ids[mid] < id) lo = mid + 1;
        else hi = mid;
      }
      this.ids.splice(lo, 0, id);
    }
  }

  summary(id: string): ExchangeSummary | null {
    return this.entries.get(id)?.summary ?? null;
  }

  /** All summaries, oldest first. */
  *summaries(): Iterable<ExchangeSummary> {
    for (const id of this.ids) {
      const e = this.entries.get(id);
      if (e) yield e.summary;
    }
  }

  /** Newest first, filtered, paged by `before` (an id, exclusive). */
  list(q: ListQuery): { items: ExchangeSummary[]; nextBefore: string | null } {
    const limit = Math.min(Math.max(q.limit ?? 100, 1), 1000);
    const needle = q.q?.toLowerCase();
    const items: ExchangeSummary[] = [];
    let i = this.ids.length - 1;
    if (q.before) {
      while (i >= 0 && this.ids[i] >= q.before) i--;
    }
    for (; i >= 0; i--) {
      const s = this.entries.get(this.ids[i])?.summary;
      if (!s) continue;
      if (q.session && s.sessionId !== q.session) continue;
      if (q.thread && s.threadId !== q.thread) continue;
      if (q.status && s.status !== q.status) continue;
      if (q.kind && s.kind !== q.kind && s.requestKind !== q.kind) continue;
      if (needle && !matches(s, needle)) continue;
      if (items.length === limit) return { items, nextBefore: items[items.length - 1].id };
      items.push(s);
    }
    return { items, nextBefore: null };
  }

  /** The full record, with its input and tools rebuilt from the objects. */
  async get(id: string): Promise<ExchangeRecord | null> {
    const e = this.entries.get(id);
    if (!e) return null;
    if (e.memory) return e.analysisMemory ? { ...e.memory, analysis: e.analysisMemory } : e.memory;
    if (!e.ref) return null;
    const payload = await this.payloadOf(e);
    if (!payload.ok) return recordOfSummary(e.summary, payload.reason);
    const p = payload.value;
    const resolve = async (hashes: (string | null)[]) =>
      Promise.all(
        hashes.map(async (h) => {
          if (!h) return unreadableItem(null, 'part of an earlier request that could not be read back');
          const r = await e.bucket.objects.get(h);
          return r.ok ? r.value : unreadableItem(h, r.reason);
        }),
      );
    const hashes = e.input ? await this.inputHashes(id) : null;
    let tools: unknown = null;
    if (p.tools) {
      const r = await e.bucket.objects.get(p.tools);
      tools = r.ok ? r.value : [unreadableItem(p.tools, r.reason)];
    }
    const record = joinRecord(e.summary, p, {
      input: hashes ? await resolve(hashes) : null,
      tools,
      wsInput: p.wsInput ? await resolve(p.wsInput) : null,
    });
    const analysis = await this.analysisOf(e);
    return analysis ? { ...record, analysis } : record;
  }

  private async analysisOf(e: Entry): Promise<ExchangeRecord['analysis'] | null> {
    if (e.analysisMemory) return e.analysisMemory;
    if (!e.analysisRef) return null;
    const d = decodeLine<{ p: string }>(await e.bucket.log.read(e.analysisRef));
    if (!d.ok) return null; // a corrupt analysis is recomputable; the record stands without it
    try {
      return unpackJson<ExchangeRecord['analysis']>(d.value.p);
    } catch {
      return null;
    }
  }

  private async payloadOf(e: Entry): Promise<{ ok: true; value: StoredPayload } | { ok: false; reason: string }> {
    const d = decodeLine<{ p: string }>(await e.bucket.log.read(e.ref!));
    if (!d.ok) return { ok: false, reason: `stored record is corrupt (${d.reason})` };
    try {
      return { ok: true, value: unpackJson<StoredPayload>(d.value.p) };
    } catch {
      return { ok: false, reason: 'stored record is corrupt (cannot inflate)' };
    }
  }

  /** Input hashes of an exchange, following deltas; null entries could not be recovered. */
  private async inputHashes(id: string): Promise<(string | null)[] | null> {
    const cached = this.hashCache.get(id);
    if (cached) return cached;
    const e = this.entries.get(id);
    if (!e || !e.input) return null;
    const apply = async (d: Delta): Promise<(string | null)[] | null> => {
      if (!d.base) return [...d.add];
      const base = await this.inputHashes(d.base);
      return base ? [...base.slice(0, d.keep), ...d.add] : null;
    };
    let out = await apply(e.input);
    if (!out && e.input.prev) {
      // The base record is unreadable: rebuild it from the copy of its delta kept here.
      const base = await apply(e.input.prev);
      const baseList = base ?? new Array<string | null>(e.input.prev.keep).fill(null).concat(e.input.prev.add);
      out = [...baseList.slice(0, e.input.keep), ...e.input.add];
    }
    out ??= new Array<string | null>(e.input.keep).fill(null).concat(e.input.add);
    if (this.hashCache.size >= 64) this.hashCache.delete(this.hashCache.keys().next().value as string);
    this.hashCache.set(id, out);
    return out;
  }

  /** Deletes a session's folder and its exchanges. */
  async deleteSession(sessionId: string): Promise<number> {
    const name = bucketName(sessionId);
    const bucket = this.buckets.get(name);
    if (!bucket) return 0;
    return this.dropBucket(bucket);
  }

  private dropBucket(bucket: Bucket): number {
    let n = 0;
    for (const [id, e] of this.entries) {
      if (e.bucket !== bucket) continue;
      this.entries.delete(id);
      n++;
    }
    this.ids = this.ids.filter((id) => this.entries.has(id));
    this.hashCache.clear();
    this.buckets.delete(bucket.name);
    fs.rmSync(bucket.dir, { recursive: true, force: true });
    return n;
  }

  /** Deletes everything captured. */
  async clear(): Promise<number> {
    const n = this.entries.size;
    for (const b of [...this.buckets.values()]) this.dropBucket(b);
    this.pending.length = 0;
    // Nothing is left to write: stop retrying (whether the disk works is told by the next write).
    this.stopRetrying();
    this.stats_.writeFailing = false;
    return n;
  }

  /** Total bytes on disk across sessions. */
  bytes(): number {
    let n = 0;
    for (const b of this.buckets.values()) n += b.log.bytes + b.objects.bytes;
    return n;
  }

  /** Removes the least recently active sessions until the store fits its cap (never the newest). */
  pruneIfNeeded(): number {
    let removed = 0;
    if (this.bytes() <= this.maxBytes) return 0;
    const byAge = [...this.buckets.values()].sort((a, b) => a.lastActivity - b.lastActivity);
    byAge.pop();
    for (const b of byAge) {
      if (this.bytes() <= this.maxBytes) break;
      this.opts.log.info(`store: pruned session ${b.name} to stay under ${this.maxBytes} bytes`);
      removed += this.dropBucket(b);
    }
    return removed;
  }

  stats(): StoreStats {
    return {
      ...this.stats_,
      exchanges: this.entries.size,
      sessions: this.buckets.size,
      bytes: this.bytes(),
      pendingWrites: this.pending.length,
    };
  }
}

function matches(s: ExchangeSummary, needle: string): boolean {
  return [s.id, s.model, s.preview, s.path, s.error?.message, s.agent.name, s.agent.nickname, s.sessionId, s.threadId, s.turnId].some(
    (v) => typeof v === 'string' && v.toLowerCase().includes(needle),
  );
}
