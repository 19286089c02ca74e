/**
 * @module The exchanges a text search finds, gathered only up to a cap. A common fragment is in
 * 10^4–10^5 items of a long history, and gathering every exchange that carries one (to say "N of
 * M stored match") is what made a search slow (91 ms p50, 280 ms p90 over 100,000 exchanges),
 * while the panel shows the first 50. Gathering stops past the cap: with fewer hits they are the
 * exact set, and the page and its count come from it; with more, the count is reported as "at
 * least the cap" and the page is found by walking the asked order and checking each row's texts
 * (`textProbe`), which takes few rows precisely because matches are then common. The store's
 * `list` chooses between these (store.ts).
 */
import type Database from 'better-sqlite3';
import { textSources, type Sql } from './query';

/**
 * Counts of search matches are exact up to here. Measured over bench/store.ts's 100,000 exchanges
 * on a loaded machine, for twelve common fragments (8,000–27,000 hits each): gathering every hit
 * took 82–480 ms, gathering 10,001 took 39–366 ms (median 110), gathering 1,001 took 4–58 ms
 * (median 9). So 1,000, which also keeps a walk short: a search past it matches at least one
 * exchange in a hundred of 100,000, and a page of 100 then lies within about 10,000 rows.
 */
export const MATCH_CAP = 1000;

/**
 * Rows a search past the cap checks, in the asked order, for its page; past them it gathers every
 * match instead (as a search did before the cap). Checking a row took about 10 µs on the same
 * loaded machine, so the window costs at most some 100 ms, and is reached only when the matches
 * lie elsewhere in the order (a word of old sessions, newest first).
 */
export const WALK_ROWS = 10_000;

/**
 * Other filters that leave at most this many rows are searched by checking those rows' texts:
 * a few milliseconds, where reading a common fragment's hits from the index to test each
 * against the filters would take tens.
 */
export const FEW_ROWS = 2000;

export interface TextHits {
  /** Rowids of matching exchanges: all of them when `complete`, else the first `cap + 1` found. */
  rowids: Set<number>;
  complete: boolean;
}

/**
 * The exchanges matching `q` and the other filters `others`, stopping once more than `cap` are
 * found. Each hit of the text index is checked against the filters by its row, so a count
 * that passes the cap is one of rows that match everything.
 */
export function gatherHits(
  prepare: (sql: string) => Database.Statement<unknown[], { rowid: number }>,
  q: string,
  cap: number,
  others: Sql = { where: '1', params: [] },
): TextHits {
  const rowids = new Set<number>();
  const { exchanges, items } = textSources(q);
  // Items first: most text is in them, so a common fragment passes the cap before the exchanges'
  // own texts (which a short query scans whole) are read at all.
  for (const source of [items, exchanges]) {
    const sql =
      others.where === '1'
        ? source.where
        : `SELECT s.rowid FROM (${source.where}) s JOIN exchanges e ON e.rowid = s.rowid WHERE ${others.where}`;
    // Leaving the loop early resets the statement (better-sqlite3 closes the iterator), so the
    // rest of the candidates is never read.
    for (const row of prepare(sql).iterate(...source.params, ...others.params)) {
      rowids.add(row.rowid);
      if (rowids.size > cap) return { rowids, complete: false };
    }
  }
  return { rowids, complete: true };
}
