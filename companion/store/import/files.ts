/**
 * @module Finding and reading the session files Codex writes under a `CODEX_HOME`:
 * `sessions/YYYY/MM/DD/rollout-*.jsonl` and `archived_sessions/`, plain or `.jsonl.zst`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { decompress } from 'fzstd';

const ROLLOUT = /^rollout-.*\.jsonl(\.zst)?$/;

export const isRolloutFile = (file: string) => ROLLOUT.test(path.basename(file));

function walk(dir: string, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // a folder Codex has not made yet, or one we may not read: nothing to import there
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) walk(full, out);
    else if (e.isFile() && ROLLOUT.test(e.name)) out.push(full);
  }
}

/** Every rollout file of a Codex home, oldest first (their names start with the date). */
export function rolloutFiles(codexHome: string): string[] {
  const out: string[] = [];
  walk(path.join(codexHome, 'sessions'), out);
  walk(path.join(codexHome, 'archived_sessions'), out);
  return out.sort((a, b) => path.basename(a).localeCompare(path.basename(b)));
}

/** The text of a rollout or JSONL file, decompressing `.zst`. Throws with a readable message. */
export function readTextFile(file: string): string {
  const buf = fs.readFileSync(file);
  if (!file.endsWith('.zst')) return buf.toString('utf8');
  try {
    return Buffer.from(decompress(buf)).toString('utf8');
  } catch (err) {
    throw new Error(`${file} is not valid zstd (${err instanceof Error ? err.message : String(err)})`);
  }
}
