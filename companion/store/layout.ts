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

const HASHED = /^h-[0-9a-f]{32}$/;

/**
 * A directory name for a session id; ids that are not plain names are hashed, and so is an id
 * that looks like a hashed name (it would share the folder of the id hashed to it).
 */
export function bucketName(sessionId: string | null): string {
  if (!sessionId) return '_unsessioned';
  const plain = /^[\w.-]{1,120}$/.test(sessionId) && !sessionId.startsWith('.') && !sessionId.startsWith('_');
  if (plain && !HASHED.test(sessionId)) return sessionId;
  return 'h-' + createHash('sha256').update(sessionId).digest('hex').slice(0, 32);
}

/**
 * Creates the state directory, or makes an existing one owner-only again (0700), with the files
 * directly in it 0600: it holds the pairing token and everything Codex sent.
 */
export function ensureHome(home: string): void {
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.join(home, 'sessions'), { recursive: true, mode: 0o700 });
  makePrivate(home);
  makePrivate(path.join(home, 'sessions'));
}

/**
 * Makes `dir` 0700 and the regular files in it 0600 where they are looser. Symbolic links are
 * not followed: what they point to is not ours to change.
 */
export function makePrivate(dir: string): void {
  tighten(dir, 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) if (entry.isFile()) tighten(path.join(dir, entry.name), 0o600);
}

function tighten(file: string, mode: number): void {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ELOOP') return; // gone, or a link
    throw err;
  }
  try {
    if ((fs.fstatSync(fd).mode & 0o777) !== mode) fs.fchmodSync(fd, mode);
  } finally {
    fs.closeSync(fd);
  }
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
