/**
 * @module Stored-once items and the inputs built of them. An exchange's input is stored as
 * "the first `keep` items of its base exchange's input, plus these hashes": Codex resends the
 * whole history on every request, so storage grows with what is new, not with the square of the
 * session. Bases are always in the same session, so deleting a session never breaks another.
 */
import type Database from 'better-sqlite3';
import { unreadableItem } from '../codec';
import { itemRow, readItem, type NewItem } from './pack';

export interface InputDelta {
  base: string | null;
  keep: number;
  add: string[];
}

const splitHashes = (s: string | null): string[] => (s ? s.split(',') : []);

export class Items {
  private readonly byHash: Database.Statement<[string], { rowid: number }>;
  private readonly insert: Database.Statement<[string, Buffer, number]>;
  private readonly insertText: Database.Statement<[number, string]>;
  private readonly ref: Database.Statement<[number, number]>;
  private readonly inSession: Database.Statement<[number, string], { one: number }>;
  private readonly bodies: Database.Statement<[string], { hash: string; body: Buffer; packed: number }>;
  private readonly delta: Database.Statement<[string], { input_base: string | null; input_keep: number; input_add: string | null }>;
  /** Full input hash lists of recent exchanges (following a chain back is a query per link). */
  private readonly inputs = new Map<string, (string | null)[]>();

  constructor(private readonly db: Database.Database) {
    this.byHash = db.prepare('SELECT rowid FROM items WHERE hash = ?');
    this.insert = db.prepare('INSERT INTO items (hash, body, packed) VALUES (?, ?, ?)');
    this.insertText = db.prepare('INSERT INTO item_texts (rowid, text) VALUES (?, ?)');
    this.ref = db.prepare('INSERT OR IGNORE INTO item_refs (item_rowid, exchange_rowid) VALUES (?, ?)');
    this.inSession = db.prepare(
      'SELECT 1 AS one FROM item_refs r JOIN exchanges e ON e.rowid = r.exchange_rowid WHERE r.item_rowid = ? AND e.session_key = ? LIMIT 1',
    );
    this.bodies = db.prepare('SELECT hash, body, packed FROM items WHERE hash IN (SELECT value FROM json_each(?))');
    this.delta = db.prepare('SELECT input_base, input_keep, input_add FROM exchanges WHERE id = ?');
  }

  /**
   * Stores the items not yet present and records which of `hashes` exchange `rowid` brought
   * first in its session: search finds an item in the exchange where it appeared (what the
   * assistant wrote in the response that wrote it, not in every later request resending it).
   * A reference from its session keeps an item alive; sessions are deleted whole. Inside a
   * transaction.
   */
  put(rowid: number, session: string, hashes: Iterable<string>, items: Map<string, NewItem>): void {
    for (const h of new Set(hashes)) {
      let itemRowid = this.byHash.get(h)?.rowid;
      if (itemRowid === undefined) {
        const it = items.get(h);
        if (!it) continue; // a hash of an item this record does not carry: nothing to store
        const row = itemRow(it.json);
        itemRowid = Number(this.insert.run(h, row.body, row.packed).lastInsertRowid);
        if (row.text !== null) this.insertText.run(itemRowid, row.text);
      } else if (this.inSession.get(itemRowid, session)) continue;
      this.ref.run(itemRowid, rowid);
    }
  }

  /** Whether an item of this hash is stored. */
  has(hash: string): boolean {
    return this.byHash.get(hash) !== undefined;
  }

  /**
   * The values of `hashes`, in order; an unknown or missing hash reads as unreadable. Those in
   * `known` are taken from it: the same hash is the same JSON.
   */
  resolve(hashes: readonly (string | null)[], known?: ReadonlyMap<string, unknown>): unknown[] {
    const found = new Map<string, unknown>();
    if (known) for (const h of hashes) if (h !== null && known.has(h)) found.set(h, known.get(h));
    const wanted = [...new Set(hashes.filter((h): h is string => h !== null && !found.has(h)))];
    for (let i = 0; i < wanted.length; i += 500) {
      for (const row of this.bodies.all(JSON.stringify(wanted.slice(i, i + 500)))) {
        try {
          found.set(row.hash, readItem(row.body, row.packed));
        } catch {
          found.set(row.hash, unreadableItem(row.hash, 'stored copy is corrupt (cannot inflate)'));
        }
      }
    }
    return hashes.map((h) =>
      h === null
        ? unreadableItem(null, 'part of an earlier request that could not be read back')
        : found.has(h)
          ? found.get(h)
          : unreadableItem(h, 'not in the store'),
    );
  }

  /** The full input hashes of exchange `id`, following its chain of bases; null without input. */
  inputOf(id: string): (string | null)[] | null {
    const cached = this.inputs.get(id);
    if (cached) return cached;
    const chain: InputDelta[] = [];
    let at: string | null = id;
    let missing = 0;
    while (at !== null) {
      const known = chain.length > 0 ? this.inputs.get(at) : undefined;
      if (known) {
        chain.push({ base: null, keep: 0, add: known as string[] });
        break;
      }
      const row = this.delta.get(at);
      if (!row) {
        // The base is gone: what it held is unreadable, the rest of the chain stands.
        missing = chain.length > 0 ? chain[chain.length - 1].keep : 0;
        break;
      }
      if (row.input_add === null && row.input_base === null && chain.length === 0) return null;
      chain.push({ base: row.input_base, keep: row.input_keep, add: splitHashes(row.input_add) });
      at = row.input_base;
    }
    let out: (string | null)[] = new Array<string | null>(missing).fill(null);
    for (let i = chain.length - 1; i >= 0; i--) out = [...out.slice(0, chain[i].keep), ...chain[i].add];
    this.remember(id, out);
    return out;
  }

  remember(id: string, hashes: (string | null)[]): void {
    if (this.inputs.size >= 64) this.inputs.delete(this.inputs.keys().next().value as string);
    this.inputs.set(id, hashes);
  }

  forget(): void {
    this.inputs.clear();
  }
}
