/**
 * @module A list query as SQL: filters, text search and a keyset cursor. Every sort is over
 * (key, id), and a cursor is the (key, id) of the last row shown, so pages are stable whatever
 * is written meanwhile, for any sort (an OFFSET would shift as rows arrive).
 */
import type { ExchangeMatchQuery } from '../../protocol/exchange-match';
import { SORT_COLUMNS, type SortKey } from './columns';

/** The list's filters: the protocol's query, whose meaning for one summary is `matchesQuery`. */
export type ExchangeFilter = ExchangeMatchQuery;

export interface ListQuery extends ExchangeFilter {
  limit?: number;
  /** The old cursor: an id, exclusive, for the default (newest first) order. */
  before?: string;
  cursor?: string;
  sort?: SortKey;
  order?: 'asc' | 'desc';
}

/** Text queries shorter than this many characters cannot use trigrams: they scan instead. */
export const TRIGRAM = 3;

export interface Sql {
  where: string;
  params: (string | number)[];
}

/** A GLOB pattern matching `q` as a substring: FTS5's trigram index answers it, then checks the text. */
const glob = (q: string): string => `*${q.replace(/[*?[]/g, (c) => `[${c}]`)}*`;

/**
 * Where the text `q` is found, as two SELECTs of one column (`rowid`, an exchange's): in the
 * exchanges' own search text (summary fields, errors) and in the items each exchange brought.
 * Three characters or more are looked up by trigram (FTS5 then checks each candidate's text);
 * shorter ones scan the texts. Both read the same lower-cased texts, so both find the same rows.
 */
export function textSources(q: string): { exchanges: Sql; items: Sql } {
  const needle = q.toLowerCase();
  if ([...needle].length >= TRIGRAM) {
    const m = glob(needle);
    return {
      exchanges: { where: 'SELECT rowid FROM exchange_fts WHERE search_text GLOB ?', params: [m] },
      items: {
        where: 'SELECT r.exchange_rowid AS rowid FROM item_fts f JOIN item_refs r ON r.item_rowid = f.rowid WHERE f.text GLOB ?',
        params: [m],
      },
    };
  }
  return {
    exchanges: { where: 'SELECT rowid FROM exchanges WHERE instr(search_text, ?) > 0', params: [needle] },
    items: {
      where: 'SELECT r.exchange_rowid AS rowid FROM item_texts i JOIN item_refs r ON r.item_rowid = i.rowid WHERE instr(i.text, ?) > 0',
      params: [needle],
    },
  };
}

/** The rowids of the exchanges whose text matches `q` (a SELECT of one column, `rowid`). */
export function textMatches(q: string): Sql {
  const { exchanges, items } = textSources(q);
  return { where: `${exchanges.where} UNION ${items.where}`, params: [...exchanges.params, ...items.params] };
}

/**
 * The text condition. One IN over a UNION, so the planner drives the query from the matches
 * instead of scanning every exchange and probing two sets; or over a table the caller filled
 * with the matches once, when it needs them twice (a page and its count).
 */
export function textCondition(q: string, table?: string): Sql {
  if (table) return { where: `e.rowid IN ${table}`, params: [] };
  const m = textMatches(q);
  return { where: `e.rowid IN (${m.where})`, params: m.params };
}

/**
 * The text condition checked on each row `e` as a scan in sort order reaches it: its own search
 * text, then the texts of the items it brought (two or three index lookups). For a search whose
 * matches are too many to gather, where a page is found after a few rows precisely because
 * matches are common. The same rows as `textMatches`: substring tests of the same texts.
 */
export function textProbe(q: string): Sql {
  const needle = q.toLowerCase();
  return {
    where: `(instr(e.search_text, ?) > 0 OR EXISTS (SELECT 1 FROM item_refs r JOIN item_texts i ON i.rowid = r.item_rowid
      WHERE r.exchange_rowid = e.rowid AND instr(i.text, ?) > 0))`,
    params: [needle, needle],
  };
}

/** The filters as a WHERE clause; `text` replaces the default condition for `f.q` (see textCondition, textProbe). */
export function filterSql(f: ExchangeFilter, text?: Sql): Sql {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const add = (sql: string, ...p: (string | number)[]) => {
    where.push(sql);
    params.push(...p);
  };
  if (f.session !== undefined) add('e.session_key = ?', f.session);
  if (f.thread !== undefined) add('e.thread_id = ?', f.thread);
  if (f.agent !== undefined) add('(e.agent_name = ? OR e.agent_nickname = ?)', f.agent, f.agent);
  if (f.status !== undefined) add('e.status = ?', f.status);
  if (f.kind !== undefined) add('(e.kind = ? OR e.request_kind = ?)', f.kind, f.kind);
  if (f.model !== undefined) add('(e.model = ? OR e.model_requested = ? OR e.model_sent = ?)', f.model, f.model, f.model);
  if (f.transport !== undefined) add('e.transport = ?', f.transport);
  if (f.verdict !== undefined) add('e.verdict = ?', f.verdict);
  if (f.source !== undefined) add('e.source = ?', f.source);
  if (f.minCost !== undefined) add('e.sort_cost >= ?', f.minCost);
  if (f.minInput !== undefined) add('e.sort_input >= ?', f.minInput);
  if (f.miss) add('e.sort_miss_cost >= 0');
  if (f.since !== undefined) add('e.started_at >= ?', f.since);
  if (f.until !== undefined) add('e.started_at < ?', f.until);
  if (f.q) {
    const t = text ?? textCondition(f.q);
    add(t.where, ...t.params);
  }
  return { where: where.length ? where.join(' AND ') : '1', params };
}

export interface Order {
  column: string;
  desc: boolean;
}

/** No `sort`: newest first by id, as the list always was (`before` pages it). */
export function orderOf(q: ListQuery): Order {
  const desc = (q.order ?? 'desc') === 'desc';
  return q.sort ? { column: `e.${SORT_COLUMNS[q.sort]}`, desc } : { column: 'e.id', desc };
}

export type Cursor = [number | string, string];

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(s: string): Cursor | null {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && (typeof v[0] === 'number' || typeof v[0] === 'string') && typeof v[1] === 'string')
      return [v[0], v[1]];
  } catch {
    // not a cursor of ours: treated as none
  }
  return null;
}

/** Rows after the cursor in the given order. */
export function afterSql(order: Order, cursor: Cursor | null, before: string | undefined): Sql {
  const op = order.desc ? '<' : '>';
  if (cursor)
    return order.column === 'e.id'
      ? { where: `e.id ${op} ?`, params: [cursor[1]] }
      : { where: `(${order.column}, e.id) ${op} (?, ?)`, params: cursor };
  if (before !== undefined && order.column === 'e.id' && order.desc) return { where: 'e.id < ?', params: [before] };
  return { where: '1', params: [] };
}
