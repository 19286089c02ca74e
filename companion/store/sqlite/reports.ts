/**
 * @module Read-only reports over the roll-up tables: sessions (paged, searchable), per-day sums
 * in any time zone, totals per thread and model. They read sums the triggers keep, never every
 * exchange, so they cost the same with 100 or 100,000 exchanges stored.
 */
import type Database from 'better-sqlite3';
import { bucketOf, sessionKey } from './columns';
import { MEASURE_NAMES, totalsOf, zeroMeasures, type Measures, type RollupTotals } from './measures';
import { decodeCursor, encodeCursor, textCondition } from './query';
import { dayBounds, dayReader } from './time-zone';

export interface SessionRow extends RollupTotals {
  sessionId: string | null;
  /** The first prompt the user typed in the session, and the working directory Codex reported. */
  title: string | null;
  cwd: string | null;
  models: string[];
  startedAt: number;
  /** The last activity (end of its latest exchange). */
  endedAt: number;
  /** All exchanges, model or not (`exchanges` counts model exchanges, as every roll-up does). */
  rows: number;
}

export interface SessionQuery {
  limit?: number;
  cursor?: string;
  /** Text search: sessions with an exchange that matches (see query.ts). */
  q?: string;
  session?: string;
}

export interface SessionPage {
  items: SessionRow[];
  nextCursor: string | null;
  matched: number;
  stored: number;
}

export interface DailyQuery {
  timeZone: string;
  since?: number;
  until?: number;
  session?: string;
  thread?: string;
  model?: string;
}

export interface DayRow extends RollupTotals {
  day: string;
}

export interface TotalsQuery {
  session?: string;
}

export interface Totals {
  all: RollupTotals;
  byThread: (RollupTotals & { threadId: string | null })[];
  byModel: (RollupTotals & { model: string | null })[];
}

type MeasureRow = Measures & Record<string, number | string | null>;

const sums = MEASURE_NAMES.map((m) => `sum(${m}) AS ${m}`).join(', ');

function measures(row: MeasureRow): Measures {
  const m = zeroMeasures();
  for (const k of MEASURE_NAMES) m[k] = Number(row[k] ?? 0);
  return m;
}

export class Reports {
  private readonly readers = new Map<string, (t: number) => string>();

  constructor(
    private readonly db: Database.Database,
    /** The store's cache of prepared statements: the live counters' reads run after every model exchange. */
    private readonly prepared: <R>(sql: string) => Database.Statement<unknown[], R>,
  ) {
    // Days are summed in SQL: materialising every bucket's row in JavaScript costs far more.
    db.function('local_day', { deterministic: true }, (t: unknown, zone: unknown) => {
      const z = String(zone);
      let read = this.readers.get(z);
      if (!read) this.readers.set(z, (read = dayReader(z)));
      return read(Number(t));
    });
  }

  sessions(q: SessionQuery): SessionPage {
    const limit = Math.min(Math.max(q.limit ?? 50, 1), 500);
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (q.session !== undefined) {
      where.push('s.session_key = ?');
      params.push(sessionKey(q.session));
    }
    if (q.q) {
      const t = textCondition(q.q);
      where.push(`s.session_key IN (SELECT e.session_key FROM exchanges e WHERE ${t.where})`);
      params.push(...t.params);
    }
    const filter = where.length ? where.join(' AND ') : '1';
    const cursor = q.cursor ? decodeCursor(q.cursor) : null;
    const after = cursor ? ' AND (s.last_at, s.session_key) < (?, ?)' : '';
    const rows = this.db
      .prepare<unknown[], MeasureRow & { session_key: string; started_at: number; last_at: number }>(
        `SELECT s.* FROM sessions s WHERE ${filter}${after} ORDER BY s.last_at DESC, s.session_key DESC LIMIT ?`,
      )
      .all(...params, ...(cursor ?? []), limit + 1);
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    const first = this.db.prepare<{ key: string }, { title: string | null; cwd: string | null }>(
      `SELECT (SELECT title FROM exchanges WHERE session_key = @key AND title IS NOT NULL ORDER BY started_at, id LIMIT 1) AS title,
              (SELECT cwd FROM exchanges WHERE session_key = @key AND cwd IS NOT NULL ORDER BY started_at, id LIMIT 1) AS cwd`,
    );
    const models = this.db.prepare<[string], { model_key: string }>(
      "SELECT DISTINCT model_key FROM rollups WHERE session_key = ? AND model_key <> '' ORDER BY model_key",
    );
    const items = page.map((r): SessionRow => {
      const f = first.get({ key: r.session_key })!;
      const m = measures(r);
      return {
        sessionId: r.session_key === '' ? null : r.session_key,
        title: f.title,
        cwd: f.cwd,
        models: models.all(r.session_key).map((x) => x.model_key),
        startedAt: r.started_at,
        endedAt: r.last_at,
        rows: m.rows,
        ...totalsOf(m),
      };
    });
    const last = page[page.length - 1];
    const count = (w: string, p: unknown[]) =>
      this.db.prepare<unknown[], { n: number }>(`SELECT count(*) AS n FROM sessions s WHERE ${w}`).get(...p)!.n;
    return {
      items,
      nextCursor: more ? encodeCursor([last.last_at, last.session_key]) : null,
      matched: count(filter, params),
      stored: count('1', []),
    };
  }

  daily(q: DailyQuery): DayRow[] {
    const where: string[] = [];
    const params: (string | number)[] = [];
    const add = (sql: string, p: string | number) => {
      where.push(sql);
      params.push(p);
    };
    if (q.session !== undefined) add('session_key = ?', sessionKey(q.session));
    if (q.thread !== undefined) add('thread_key = ?', q.thread);
    if (q.model !== undefined) add('model_key = ?', q.model);
    if (q.since !== undefined) add('bucket >= ?', q.since);
    if (q.until !== undefined) add('bucket < ?', q.until);
    // Without a session, thread or model, the per-bucket totals hold the same sums in far fewer rows.
    const table = q.session === undefined && q.thread === undefined && q.model === undefined ? 'bucket_totals' : 'rollups';
    const rows = this.db
      .prepare<unknown[], MeasureRow & { day: string }>(
        `SELECT local_day(bucket, ?) AS day, ${sums} FROM ${table} WHERE ${where.length ? where.join(' AND ') : '1'} GROUP BY day ORDER BY day`,
      )
      .all(q.timeZone, ...params);
    return rows.map((r) => ({ day: r.day, ...totalsOf(measures(r)) }));
  }

  totals(q: TotalsQuery): Totals {
    const where = q.session !== undefined ? 'WHERE session_key = ?' : '';
    const params = q.session !== undefined ? [sessionKey(q.session)] : [];
    const by = (col: string) =>
      this.db
        .prepare<unknown[], MeasureRow & { k: string }>(`SELECT ${col} AS k, ${sums} FROM rollups ${where} GROUP BY ${col} ORDER BY ${col}`)
        .all(...params);
    const all = this.db.prepare<unknown[], MeasureRow>(`SELECT ${sums} FROM rollups ${where}`).get(...params)!;
    return {
      all: totalsOf(measures(all)),
      byThread: by('thread_key').map((r) => ({ threadId: r.k === '' ? null : r.k, ...totalsOf(measures(r)) })),
      byModel: by('model_key').map((r) => ({ model: r.k === '' ? null : r.k, ...totalsOf(measures(r)) })),
    };
  }

  /** Sums of the exchanges started at or after `since`, a day's start in some zone (so a bucket's start). */
  since(since: number): RollupTotals {
    return totalsOf(measures(this.prepared<MeasureRow>(`SELECT ${sums} FROM bucket_totals WHERE bucket >= ?`).get(bucketOf(since))!));
  }

  /** Sums of one session, from its row of the `sessions` table. */
  session(sessionId: string | null): RollupTotals {
    const row = this.prepared<MeasureRow>(`SELECT ${MEASURE_NAMES.join(', ')} FROM sessions WHERE session_key = ?`).get(
      sessionKey(sessionId),
    );
    return totalsOf(row ? measures(row) : zeroMeasures());
  }

  /** A report's scope as list filters: a session, a local day, or everything. */
  scope(s: { session?: string; day?: string; timeZone?: string }): { session?: string; since?: number; until?: number } {
    const out: { session?: string; since?: number; until?: number } = {};
    if (s.session !== undefined) out.session = sessionKey(s.session);
    if (s.day !== undefined) Object.assign(out, dayBounds(s.day, s.timeZone ?? 'UTC'));
    return out;
  }
}
