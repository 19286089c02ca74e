/** @module Where things live in the state directory, and its format version. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';

/** Bumped when the on-disk format changes; older stores are migrated one version at a time. */
export const STORE_FORMAT = 1;

/** `--home`, else `CODEX_DEVTOOLS_HOME`, else `~/.codex-devtools`. */
export function resolveHome(flag?: string | null, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag || env.CODEX_DEVTOOLS_HOME || path.join(os.homedir(), '.codex-devtools');
  return path.resolve(chosen);
}

export const paths = (home: string) => ({
  home,
  meta: path.join(home, 'store.json'),
  sessions: path.join(home, 'sessions'),
  token: path.join(home, 'token'),
  profiles: path.join(home, 'profiles.json'),
  prices: path.join(home, 'prices.json'),
  settings: path.join(home, 'settings.json'),
  lock: path.join(home, 'companion.json'),
});

/** A directory name for a session id; ids that are not plain names are hashed. */
export function bucketName(sessionId: string | null): string {
  if (!sessionId) return '_unsessioned';
  if (/^[\w.-]{1,120}$/.test(sessionId) && !sessionId.startsWith('.') && !sessionId.startsWith('_')) return sessionId;
  return 'h-' + createHash('sha256').update(sessionId).digest('hex').slice(0, 32);
}

/** Creates the state directory with owner-only permissions. */
export function ensureHome(home: string): void {
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.join(home, 'sessions'), { recursive: true, mode: 0o700 });
}

/** Writes a small file atomically with mode 0600 (temp file + rename). */
export function writePrivateFile(file: string, data: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, data, { mode: 0o600 });
    fs.chmodSync(tmp, 0o600);
    fs.renameSync(tmp, file);
  } catch (err) {
    // A half-written temp file (full disk) would only take more space; the old file stays intact.
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
