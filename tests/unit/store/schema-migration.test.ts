import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { configure, migrate, SCHEMA_VERSION } from '../../../companion/store/sqlite/schema';
import { tempHomes } from '../../support/companion';

const homes = tempHomes('codex-devtools-schema-');
const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function database(home: string): Database.Database {
  fs.mkdirSync(home, { recursive: true });
  const db = new Database(path.join(home, 'store.db'));
  open.push(db);
  configure(db);
  return db;
}

describe('the store schema brought forward from version 1', () => {
  it('moves item texts beside the bodies into their own table, still found by the trigram index, and gone with their item', () => {
    const home = homes();
    const db = database(home);
    migrate(db, home, 1);
    const insert = db.prepare('INSERT INTO items (hash, body, packed, text) VALUES (?, ?, 0, ?)');
    insert.run('h-parser', Buffer.from('{"a":1}'), 'fix the parser of sse streams');
    insert.run('h-none', Buffer.from('{"b":2}'), null);
    insert.run('h-cjk', Buffer.from('{"c":3}'), '数据库迁移脚本');

    migrate(db, home);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT count(*) AS n FROM items WHERE text IS NOT NULL').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT rowid, text FROM item_texts ORDER BY rowid').all()).toEqual([
      { rowid: 1, text: 'fix the parser of sse streams' },
      { rowid: 3, text: '数据库迁移脚本' },
    ]);
    const found = (g: string) =>
      (db.prepare('SELECT rowid FROM item_fts WHERE text GLOB ?').all(g) as { rowid: number }[]).map((r) => r.rowid);
    expect(found('*arse*')).toEqual([1]);
    expect(found('*迁移脚*')).toEqual([3]);

    db.prepare('DELETE FROM items WHERE hash = ?').run('h-parser');
    expect(found('*arse*')).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM item_texts').get()).toEqual({ n: 1 });
    expect(db.prepare("INSERT INTO item_fts (item_fts) VALUES ('integrity-check')").run().changes).toBeGreaterThanOrEqual(0);
  });

  it("fills each stored exchange's response id from its summary, for the import's one-lookup check", () => {
    const home = homes();
    const db = database(home);
    migrate(db, home, 3);
    // A row of version 3 with every required column at a neutral value (the triggers need them).
    const cols = db.prepare('PRAGMA table_info(exchanges)').all() as { name: string; notnull: number; dflt_value: unknown; type: string }[];
    const insert = (rowid: number, id: string, responseId: string | null) => {
      const row: Record<string, string | number> = { rowid, id };
      for (const c of cols)
        if (c.notnull && c.dflt_value === null && !(c.name in row)) row[c.name] = c.type.toUpperCase().includes('TEXT') ? '' : 0;
      const names = Object.keys(row);
      db.prepare(`INSERT INTO exchanges (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(
        ...names.map((n) => row[n]),
      );
      db.prepare('INSERT INTO bodies (rowid, summary) VALUES (?, ?)').run(rowid, JSON.stringify({ id, responseId }));
    };
    insert(1, 'x-1', 'resp_abc');
    insert(2, 'x-2', null);
    migrate(db, home);
    expect(db.prepare('SELECT id, response_id FROM exchanges ORDER BY rowid').all()).toEqual([
      { id: 'x-1', response_id: 'resp_abc' },
      { id: 'x-2', response_id: null },
    ]);
    const plan = (db.prepare('EXPLAIN QUERY PLAN SELECT 1 FROM exchanges WHERE response_id = ?').all('resp_abc') as { detail: string }[])
      .map((r) => r.detail)
      .join(' ');
    expect(plan).toContain('exchanges_response');
  });
});
