/**
 * @module The exchanges a text search finds, gathered only up to a cap. A common fragment is in
 * 10^4–10^5 items of a long history, and gathering every exchange that carries one (to say "N of
 * M stored match") is what made a search slow (91 ms p50, 280 ms p90 over 100,000 exchanges),
 * while the panel shows the first 50. Gathering stops past the cap: with fewer hits they are the
 * exact set, and the page and its count come from it; with more, the count is reported as "at
 * least the cap" and the page is found by walking the asked order and checking each row's texts
 * (`textProbe`), which takes few rows precisely because matches are then common.
 */
import type Database from 'better-sqlite3';
import { textSources } from './query';

/**
 * Counts of search matches are exact up to here. Gathering costs about 1 µs a hit and a walk's
 * check about as much a row (bench/store.ts, 100,000 exchanges): 1,000 keeps the gathering of a
 * search under a few milliseconds, and a fragment common enough to pass it matches at least one
 * row in a hundred, so a walk finds a page of 100 within about 10,000 rows.
 */
export const MATCH_CAP = 1000;

/**
 * Rows a search past the cap checks, in the asked order, for its page; past them it gathers every
 * match instead (as a search did before the cap). A search past the cap matches at least one row in
 * a hundred on average, so a page of 100 is found within 10,000 rows unless its matches lie
 * elsewhere in the order (a word of old sessions, newest first).
 */
export const WALK_ROWS = 10_000;

export interface TextHits {
  /** Rowids of matching exchanges: all of them when `complete`, else the first `cap + 1` found. */
  rowids: Set<number>;
  complete: boolean;
}

/** The exchanges matching `q`, stopping once more than `cap` are found. */
export function gatherHits(prepare: (sql: string) => Database.Statement<unknown[], { rowid: number }>, q: string, cap: number): TextHits {
  const rowids = new Set<number>();
  const { exchanges, items } = textSources(q);
  for (const source of [exchanges, items]) {
    // Leaving the loop early resets the statement (better-sqlite3 closes the iterator), so the
    // rest of the candidates is never read.
    for (const row of prepare(source.where).iterate(...source.params)) {
      rowids.add(row.rowid);
      if (rowids.size > cap) return { rowids, complete: false };
    }
  }
  return { rowids, complete: true };
}
