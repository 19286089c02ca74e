/** @module The pairing token: created on first start, kept mode 0600 in the state directory. */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { paths, writePrivateFile, ensureHome } from '../store/layout';

function fresh(): string {
  return randomBytes(24).toString('base64url');
}

/** Reads the token, creating it if there is none. */
export function loadOrCreateToken(home: string): string {
  const file = paths(home).token;
  try {
    const t = fs.readFileSync(file, 'utf8').trim();
    if (t.length >= 16) return t;
  } catch {
    // no token yet: create one below
  }
  ensureHome(home);
  const t = fresh();
  writePrivateFile(file, t + '\n');
  return t;
}

/** Replaces the token; clients paired with the old one must pair again. */
export function rotateToken(home: string): string {
  ensureHome(home);
  const t = fresh();
  writePrivateFile(paths(home).token, t + '\n');
  return t;
}

/** The current token, re-read when the file changes (so `codex-devtools token --rotate` applies at once). */
export function tokenSource(home: string): () => string {
  let token = loadOrCreateToken(home);
  let mtime = 0;
  return () => {
    try {
      const m = fs.statSync(paths(home).token).mtimeMs;
      if (m !== mtime) {
        mtime = m;
        token = loadOrCreateToken(home);
      }
    } catch {
      token = loadOrCreateToken(home);
    }
    return token;
  };
}
