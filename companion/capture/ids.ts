/** @module Exchange ids: sortable by start time, unique within a process and across restarts. */
import { randomBytes } from 'node:crypto';

let last = 0;
let counter = 0;

/** `<ms since epoch, base36, 9 chars>-<counter>-<random>`: lexical order is start order. */
export function newExchangeId(now = Date.now()): string {
  counter = now === last ? counter + 1 : 0;
  last = now;
  return `${now.toString(36).padStart(9, '0')}${counter.toString(36).padStart(3, '0')}${randomBytes(4).toString('hex')}`;
}
