/**
 * @module Capture yields the CPU to forwarding. On a machine with few cores the capture worker,
 * busy with a burst (parsing, analysis, the database), competes with the main thread that
 * forwards Codex's bytes; below-normal priority lets the scheduler prefer forwarding whenever both
 * want a core, and costs nothing when a core is free. Linux gives each thread its own nice value
 * (its id is the tail of /proc/thread-self); elsewhere the call does nothing.
 */
import fs from 'node:fs';
import os from 'node:os';

/** Lowers the calling thread's priority; returns whether it could. */
export function yieldToForwarding(): boolean {
  try {
    const tid = Number(tail(fs.readlinkSync('/proc/thread-self')));
    if (!Number.isInteger(tid) || tid <= 0) return false;
    os.setPriority(tid, os.constants.priority.PRIORITY_BELOW_NORMAL);
    return true;
  } catch {
    return false; // not Linux, or no /proc: the thread keeps the process's priority
  }
}

/** `<pid>/task/<tid>` → `<tid>`. */
function tail(link: string): string {
  return link.slice(link.lastIndexOf('/') + 1);
}
