/**
 * The storage budget's measure: a session in Codex's pattern stored by the real store, against
 * the same session written as plain JSONL (one line per exchange: request body and raw SSE).
 * Shared by the store test (the budget) and `npm run bench` (the figure). Measured after a WAL
 * checkpoint. Test-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Store } from '../../companion/store/store';
import { createLogger } from '../../companion/lib/log';
import { codexSession, stepRecord } from './session';

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true }))
    n += e.isDirectory() ? dirBytes(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).size;
  return n;
}

/** Stores an `n`-request session in `home` and returns both sizes in bytes. */
export async function measureStorage(home: string, n: number): Promise<{ naive: number; stored: number }> {
  const store = Store.open({ home, log: createLogger('silent') });
  let naive = 0;
  for (const step of codexSession(n)) {
    naive += Buffer.byteLength(JSON.stringify({ request: step.body, sse: step.sse }) + '\n');
    await store.append(await stepRecord(step));
  }
  // Closing checkpoints the write-ahead log into the database file (and removes the log).
  store.close();
  return { naive, stored: dirBytes(home) };
}
