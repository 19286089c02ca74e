/**
 * @module Brings a state directory written by codex-devtools 0.1.0 (per-session line logs under
 * `sessions/`) into the SQLite store. Meant to run after the companion is listening: it yields
 * to the event loop between records, so forwarding goes on meanwhile. Exchanges already in the
 * database are skipped, so an import cut short is simply run again. The old files are removed
 * only once every record is on disk in the database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from '../lib/log';
import type { ExchangeRecord } from '../protocol/exchange';
import { LineStore } from './legacy/line-store';
import { paths } from './layout';
import type { Store } from './store';

const BATCH = 50;

export interface LegacyImport {
  /** Exchanges written into the database by this run. */
  migrated: number;
  /** Exchanges the database already held (an earlier run, cut short). */
  skipped: number;
  /** True once the old files are gone; false when there was nothing to import or a write failed. */
  removedOldFiles: boolean;
  /** The line for the log. */
  message: string;
}

/** Whether `home` holds a 0.1.0 store not yet imported. */
export function hasLegacyStore(home: string): boolean {
  const dir = paths(home).sessions;
  return fs.existsSync(dir) && fs.readdirSync(dir).some((name) => fs.statSync(path.join(dir, name)).isDirectory());
}

export async function importLegacyStore(store: Store, home: string, log: Logger): Promise<LegacyImport> {
  if (!hasLegacyStore(home)) return { migrated: 0, skipped: 0, removedOldFiles: false, message: 'store: no 0.1.0 history to migrate' };
  const legacy = LineStore.open({ home, log, maxBytes: Number.MAX_SAFE_INTEGER });
  let migrated = 0;
  let skipped = 0;
  // Oldest first: each thread's requests arrive in order, so their inputs are stored as deltas again.
  // In batches of one transaction each, yielding between them so forwarding goes on.
  let batch: ExchangeRecord[] = [];
  const flush = async () => {
    await store.appendMany(batch);
    migrated += batch.length;
    batch = [];
    await yieldToLoop();
  };
  for (const s of [...legacy.summaries()]) {
    if (store.summary(s.id)) {
      skipped++;
      continue;
    }
    const record = await legacy.get(s.id);
    if (!record) continue;
    batch.push(record);
    if (batch.length === BATCH) await flush();
  }
  await flush();
  legacy.close();
  const pending = store.stats().pendingWrites;
  if (pending > 0) {
    const message = `store: migrated ${migrated} exchanges from the 0.1.0 format, but ${pending} writes wait (the disk failed); the old files are kept and the migration runs again on the next start`;
    log.warn(message);
    return { migrated, skipped, removedOldFiles: false, message };
  }
  const p = paths(home);
  fs.rmSync(p.sessions, { recursive: true, force: true });
  fs.rmSync(p.meta, { force: true });
  const message = `store: migrated ${migrated} exchanges from the 0.1.0 format${skipped ? ` (${skipped} were already migrated)` : ''}; removed the old files`;
  log.info(message);
  return { migrated, skipped, removedOldFiles: true, message };
}
