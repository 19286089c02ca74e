/** @module Exchange ids: sortable by start time, unique within a process and across restarts. */
import { randomFillSync } from 'node:crypto';

let last = 0;
let counter = 0;
/** Random bytes drawn 4 KiB at a time: one system call per 1,024 ids, not one per id (on the forward path). */
const pool = Buffer.alloc(4096);
let used = pool.length;

/** `<ms since epoch, base36, 9 chars>-<counter>-<random>`: lexical order is start order. */
export function newExchangeId(now = Date.now()): string {
  counter = now === last ? counter + 1 : 0;
  last = now;
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 4;
  return `${now.toString(36).padStart(9, '0')}${counter.toString(36).padStart(3, '0')}${pool.toString('hex', used - 4, used)}`;
}
