/**
 * @module The database schema and its migrations. `user_version` holds the schema version;
 * `migrations` records when each step ran. A database of a newer version is refused (never
 * misread); an older one is brought forward one step at a time inside a transaction.
 *
 * Tables: `exchanges` (one row per exchange: filter/sort columns), `bodies` (its summary as
 * JSON, the rest deflated), `items` (input and output items, tool lists and error texts, each stored
 * once by content hash), `item_texts` (the text search reads of each, apart from its body), `item_refs` (which exchange brought which
 * item: what search attributes to an exchange, and what keeps an item alive), `exchange_events`
 * (events of an exchange still streaming), `rollups` (sums per 15-minute bucket, session, thread
 * and model; `bucket_totals` per bucket alone) and `sessions` (sums per session), all kept by
 * triggers on `exchanges`.
 */
import type Database from 'better-sqlite3';
import { MEASURE_NAMES } from './measures';

export const SCHEMA_VERSION = 5;

const sum = (sign: '+' | '-', row: 'NEW' | 'OLD') => MEASURE_NAMES.map((m) => `${m} = ${m} ${sign} ${row}.m_${m}`).join(', ');
const measureCols = (type: string) => MEASURE_NAMES.map((m) => `${m} ${type} NOT NULL DEFAULT 0`).join(',\n  ');

/**
 * Adds (NEW) or removes (OLD) one exchange's measures to its roll-up bucket and its session.
 * Removing recomputes the session's first and last times from its remaining exchanges, which
 * reads every exchange of the session; `onlyIfMoved` (an update, followed by adding NEW) does it
 * only when the row could have held one of them and no longer does.
 */
function apply(row: 'NEW' | 'OLD', sign: '+' | '-', onlyIfMoved = false): string {
  const key = `${row}.bucket, ${row}.session_key, coalesce(${row}.thread_id, ''), ${row}.model_key`;
  const where = `bucket = ${row}.bucket AND session_key = ${row}.session_key AND thread_key = coalesce(${row}.thread_id, '') AND model_key = ${row}.model_key`;
  const session =
    sign === '+'
      ? `INSERT INTO sessions (session_key, started_at, last_at) VALUES (NEW.session_key, NEW.started_at, NEW.last_at)
           ON CONFLICT (session_key) DO UPDATE SET started_at = min(started_at, excluded.started_at), last_at = max(last_at, excluded.last_at);
         UPDATE sessions SET ${sum('+', 'NEW')} WHERE session_key = NEW.session_key;`
      : // Times of the remaining exchanges: recomputed, since a minimum or maximum cannot be subtracted.
        `UPDATE sessions SET ${sum('-', 'OLD')} WHERE session_key = OLD.session_key;
         UPDATE sessions SET
           started_at = coalesce((SELECT min(started_at) FROM exchanges WHERE session_key = OLD.session_key), started_at),
           last_at = coalesce((SELECT max(last_at) FROM exchanges WHERE session_key = OLD.session_key), last_at)
           WHERE session_key = OLD.session_key${onlyIfMoved ? ' AND (NEW.session_key IS NOT OLD.session_key OR NEW.started_at <> OLD.started_at OR NEW.last_at < OLD.last_at)' : ''};
         DELETE FROM sessions WHERE session_key = OLD.session_key AND rows <= 0;`;
  const rollup =
    sign === '+'
      ? `INSERT INTO rollups (bucket, session_key, thread_key, model_key) VALUES (${key}) ON CONFLICT DO NOTHING;
         UPDATE rollups SET ${sum('+', 'NEW')} WHERE ${where};
         INSERT INTO bucket_totals (bucket) VALUES (NEW.bucket) ON CONFLICT DO NOTHING;
         UPDATE bucket_totals SET ${sum('+', 'NEW')} WHERE bucket = NEW.bucket;`
      : `UPDATE rollups SET ${sum('-', 'OLD')} WHERE ${where};
         DELETE FROM rollups WHERE ${where} AND rows <= 0;
         UPDATE bucket_totals SET ${sum('-', 'OLD')} WHERE bucket = OLD.bucket;
         DELETE FROM bucket_totals WHERE bucket = OLD.bucket AND rows <= 0;`;
  return `${rollup}\n${session}`;
}

const STEPS: { name: string; sql: string }[] = [
  {
    name: 'sqlite store',
    sql: `
CREATE TABLE exchanges (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  session_key TEXT NOT NULL,
  thread_id TEXT,
  status TEXT NOT NULL,
  kind TEXT NOT NULL,
  request_kind TEXT NOT NULL,
  transport TEXT NOT NULL,
  source TEXT NOT NULL,
  agent_name TEXT,
  agent_nickname TEXT,
  model_key TEXT NOT NULL,
  model TEXT,
  model_requested TEXT,
  model_sent TEXT,
  verdict TEXT,
  started_at INTEGER NOT NULL,
  last_at INTEGER NOT NULL,
  bucket INTEGER NOT NULL,
  sort_cost REAL NOT NULL,
  sort_input INTEGER NOT NULL,
  sort_output INTEGER NOT NULL,
  sort_cached_share REAL NOT NULL,
  sort_duration INTEGER NOT NULL,
  sort_miss_cost REAL NOT NULL,
  search_text TEXT NOT NULL,
  ${MEASURE_NAMES.map((m) => `m_${m} REAL NOT NULL`).join(',\n  ')},
  -- 1 once the exchange's end is on disk; 0 while it streams (a crash leaves it 0: aborted on open).
  ended INTEGER NOT NULL,
  -- Who began it (process and store instance): a live owner's streaming exchange is no crash's.
  owner_pid INTEGER,
  owner TEXT,
  -- The first user prompt and working directory its input carries (for session titles).
  title TEXT,
  cwd TEXT,
  -- Input as "first input_keep items of input_base's input, plus input_add" (hashes, comma-separated).
  input_base TEXT,
  input_keep INTEGER NOT NULL DEFAULT 0,
  input_add TEXT
);
-- The wide parts, apart, so that filters and counts scan narrow rows: the summary as JSON, the
-- rest of the record and its analysis deflated, and the request of an exchange begun but not ended.
CREATE TABLE bodies (
  rowid INTEGER PRIMARY KEY,
  summary TEXT NOT NULL,
  payload BLOB,
  analysis BLOB,
  begun BLOB
);
CREATE INDEX exchanges_status ON exchanges (status, id);
CREATE INDEX exchanges_time ON exchanges (started_at, id);
CREATE INDEX exchanges_cost ON exchanges (sort_cost, id);
CREATE INDEX exchanges_input ON exchanges (sort_input, id);
CREATE INDEX exchanges_output ON exchanges (sort_output, id);
CREATE INDEX exchanges_cached_share ON exchanges (sort_cached_share, id);
CREATE INDEX exchanges_duration ON exchanges (sort_duration, id);
CREATE INDEX exchanges_miss_cost ON exchanges (sort_miss_cost, id);
CREATE INDEX exchanges_session ON exchanges (session_key, started_at);
CREATE INDEX exchanges_thread ON exchanges (thread_id, id);
CREATE INDEX exchanges_unended ON exchanges (ended) WHERE ended = 0;

CREATE TABLE items (
  rowid INTEGER PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  body BLOB NOT NULL,
  packed INTEGER NOT NULL,
  -- Lower-cased searchable text (prompts, assistant text, reasoning summaries, tool calls, errors).
  text TEXT
);

CREATE TABLE item_refs (
  item_rowid INTEGER NOT NULL,
  exchange_rowid INTEGER NOT NULL,
  PRIMARY KEY (item_rowid, exchange_rowid)
) WITHOUT ROWID;
CREATE INDEX item_refs_exchange ON item_refs (exchange_rowid);

CREATE TABLE exchange_events (
  rowid INTEGER PRIMARY KEY,
  exchange_id TEXT NOT NULL,
  chunk BLOB NOT NULL
);
CREATE INDEX exchange_events_exchange ON exchange_events (exchange_id);

-- Trigram search inside words and in CJK text; each item is indexed once, however many exchanges carry it.
-- detail = none keeps no token positions (a third of the size): a GLOB over the table finds the
-- candidates by their trigrams and checks each against the text, so matches stay exact.
-- (Step 2 moves the item texts into their own table and points item_fts at it.)
CREATE VIRTUAL TABLE item_fts USING fts5 (text, content = 'items', content_rowid = 'rowid', tokenize = 'trigram case_sensitive 1', detail = none);
CREATE VIRTUAL TABLE exchange_fts USING fts5 (search_text, content = 'exchanges', content_rowid = 'rowid', tokenize = 'trigram case_sensitive 1', detail = none);
CREATE TRIGGER items_fts_insert AFTER INSERT ON items WHEN NEW.text IS NOT NULL BEGIN
  INSERT INTO item_fts (rowid, text) VALUES (NEW.rowid, NEW.text);
END;
CREATE TRIGGER items_fts_delete AFTER DELETE ON items WHEN OLD.text IS NOT NULL BEGIN
  INSERT INTO item_fts (item_fts, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
END;

CREATE TABLE rollups (
  bucket INTEGER NOT NULL,
  session_key TEXT NOT NULL,
  thread_key TEXT NOT NULL,
  model_key TEXT NOT NULL,
  ${measureCols('REAL')},
  PRIMARY KEY (bucket, session_key, thread_key, model_key)
) WITHOUT ROWID;
CREATE INDEX rollups_session ON rollups (session_key);

-- The same sums over every session, thread and model: per-day totals of everything read
-- a few thousand rows, however many sessions there are.
CREATE TABLE bucket_totals (
  bucket INTEGER PRIMARY KEY,
  ${measureCols('REAL')}
);

CREATE TABLE sessions (
  session_key TEXT PRIMARY KEY,
  started_at INTEGER NOT NULL,
  last_at INTEGER NOT NULL,
  ${measureCols('REAL')}
) WITHOUT ROWID;
CREATE INDEX sessions_last ON sessions (last_at, session_key);

CREATE TRIGGER exchanges_insert AFTER INSERT ON exchanges BEGIN
  INSERT INTO exchange_fts (rowid, search_text) VALUES (NEW.rowid, NEW.search_text);
  ${apply('NEW', '+')}
END;
CREATE TRIGGER exchanges_delete AFTER DELETE ON exchanges BEGIN
  DELETE FROM bodies WHERE rowid = OLD.rowid;
  INSERT INTO exchange_fts (exchange_fts, rowid, search_text) VALUES ('delete', OLD.rowid, OLD.search_text);
  ${apply('OLD', '-')}
END;
-- Every summary write sets every derived column, bucket among them (until 'summary updates by column').
CREATE TRIGGER exchanges_update AFTER UPDATE OF bucket ON exchanges BEGIN
  INSERT INTO exchange_fts (exchange_fts, rowid, search_text) VALUES ('delete', OLD.rowid, OLD.search_text);
  INSERT INTO exchange_fts (rowid, search_text) VALUES (NEW.rowid, NEW.search_text);
  ${apply('OLD', '-')}
  ${apply('NEW', '+')}
END;
`,
  },
  {
    // Searchable text apart from the bodies: checking a trigram candidate read its row's text
    // after the body, through the body's overflow pages (84 ms for 8,000 candidates of 100,000
    // exchanges; the index lookup itself took 6 ms). A narrow table keeps each check on one page.
    name: 'item texts',
    sql: `
CREATE TABLE item_texts (
  rowid INTEGER PRIMARY KEY,
  text TEXT NOT NULL
);
INSERT INTO item_texts (rowid, text) SELECT rowid, text FROM items WHERE text IS NOT NULL;
DROP TRIGGER items_fts_insert;
DROP TRIGGER items_fts_delete;
DROP TABLE item_fts;
CREATE VIRTUAL TABLE item_fts USING fts5 (text, content = 'item_texts', content_rowid = 'rowid', tokenize = 'trigram case_sensitive 1', detail = none);
INSERT INTO item_fts (item_fts) VALUES ('rebuild');
CREATE TRIGGER item_texts_fts_insert AFTER INSERT ON item_texts BEGIN
  INSERT INTO item_fts (rowid, text) VALUES (NEW.rowid, NEW.text);
END;
CREATE TRIGGER item_texts_fts_delete AFTER DELETE ON item_texts BEGIN
  INSERT INTO item_fts (item_fts, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
END;
CREATE TRIGGER items_text_delete AFTER DELETE ON items BEGIN
  DELETE FROM item_texts WHERE rowid = OLD.rowid;
END;
-- items.text stays, always NULL: dropping a column rewrites its table, which would cost every new
-- store 50 ms of start-up; clearing the old texts frees their space in a history that had them.
UPDATE items SET text = NULL WHERE text IS NOT NULL;
`,
  },
  {
    // Which analysis and price table each stored analysis was computed with, so that the ones a
    // release or an edited prices.json made out of date are found without reading every analysis.
    // NULL (every analysis stored before this step) is out of date.
    name: 'analysis versions',
    sql: `
ALTER TABLE exchanges ADD COLUMN analysis_version INTEGER;
ALTER TABLE exchanges ADD COLUMN prices_version TEXT;
`,
  },
  {
    // The model response each exchange carries: an import asks whether a response is known (one
    // index lookup) instead of reading every summary at each run, which --watch-codex-home makes
    // after every turn Codex writes.
    name: 'response ids',
    sql: `
ALTER TABLE exchanges ADD COLUMN response_id TEXT;
UPDATE exchanges SET response_id = (SELECT json_extract(b.summary, '$.responseId') FROM bodies b WHERE b.rowid = exchanges.rowid);
CREATE INDEX exchanges_response ON exchanges (response_id) WHERE response_id IS NOT NULL;
`,
  },
  {
    // Every exchange's summary is written twice more after its row is created (the record, then
    // its analysis). Each write fired one trigger that re-indexed the search text and recomputed
    // the session's first and last times by reading all of the session's exchanges: a cost that
    // grew with the session (0.4 ms per exchange in a session of 1,000). Summary writes now set
    // only the columns that changed (store.ts), so the search text is re-indexed when it changes,
    // the roll-ups are redone when a column they read changes, and the session's times are
    // recomputed only when the row's times moved back, or the row moved to another session.
    name: 'summary updates by column',
    sql: `
DROP TRIGGER exchanges_update;
CREATE TRIGGER exchanges_search_update AFTER UPDATE OF search_text ON exchanges BEGIN
  INSERT INTO exchange_fts (exchange_fts, rowid, search_text) VALUES ('delete', OLD.rowid, OLD.search_text);
  INSERT INTO exchange_fts (rowid, search_text) VALUES (NEW.rowid, NEW.search_text);
END;
CREATE TRIGGER exchanges_rollup_update
  AFTER UPDATE OF bucket, session_key, thread_id, model_key, started_at, last_at, ${MEASURE_NAMES.map((m) => `m_${m}`).join(', ')} ON exchanges BEGIN
  ${apply('OLD', '-', true)}
  ${apply('NEW', '+')}
END;
`,
  },
];

/** Applies the pragmas every connection needs. */
export function configure(db: Database.Database): void {
  db.pragma('busy_timeout = 5000');
  // auto_vacuum must be chosen before the first table exists; pruning then gives space back.
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  // In WAL mode NORMAL loses at most the last transactions on power loss, never consistency.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
}

/** Brings the schema to SCHEMA_VERSION (tests stop at an older `target`); throws on a database of a newer version. */
export function migrate(db: Database.Database, home: string, target = SCHEMA_VERSION): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION)
    throw new Error(
      `The store in ${home} was written by a newer codex-devtools (schema ${version}); update codex-devtools or use another --home.`,
    );
  if (version >= target) return;
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    for (let v = version; v < target; v++) {
      db.exec(STEPS[v].sql);
      db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)').run(v + 1, STEPS[v].name, Date.now());
    }
    db.pragma(`user_version = ${target}`);
  })();
}
