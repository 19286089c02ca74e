/**
 * @module One companion per state directory. The lock is a file created exclusively
 * (`companion.json`: pid, port, version), so of two companions started on one `--home` exactly one
 * gets it; the other is told which one runs. A lock left by a companion that is gone (kill -9, a
 * crash, a reboot) is taken over. The CLI's other commands read the same file to find the port of
 * the companion using their state directory.
 */
import fs from 'node:fs';
import { ensureHome, paths } from '../store/layout';

export interface LockInfo {
  pid: number;
  /** 0 while the companion is still starting (it has not bound its port yet). */
  port: number;
  version: string;
  startedAt: number;
}

export class StateDirLocked extends Error {
  override name = 'StateDirLocked';
  constructor(
    readonly home: string,
    readonly holder: LockInfo,
  ) {
    super(
      `Another codex-devtools companion (pid ${holder.pid}${holder.port ? `, port ${holder.port}` : ''}) is already using the state directory ${home}. Use it, stop it first, or start this one with another --home.`,
    );
  }
}

/** True while a process with this pid exists (EPERM: it exists, under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parse(text: string): LockInfo | null {
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    return typeof v.pid === 'number' && Number.isInteger(v.pid) && v.pid > 0 && typeof v.port === 'number'
      ? { pid: v.pid, port: v.port, version: String(v.version ?? ''), startedAt: Number(v.startedAt ?? 0) }
      : null;
  } catch {
    return null;
  }
}

/** The lock's holder when it is a live process; null when there is no lock or it is stale. */
export function readLock(home: string): LockInfo | null {
  let text: string;
  try {
    text = fs.readFileSync(paths(home).lock, 'utf8');
  } catch {
    return null;
  }
  const info = parse(text);
  return info && alive(info.pid) ? info : null;
}

export interface StateLock {
  readonly info: LockInfo;
  /** Records the port once the companion listens, so the CLI can find it. */
  setPort(port: number): void;
  /** Removes the lock if it is still ours. */
  release(): void;
}

/**
 * Takes the lock of `home` or throws `StateDirLocked`. A lock held by a pid that no longer exists,
 * or that cannot be read, is stale and taken over. A pid that exists but is not a companion (the
 * pid was reused after a crash) is told apart by `stillCompanion`, which asks the recorded port.
 */
export async function acquireStateLock(
  home: string,
  version: string,
  stillCompanion: (info: LockInfo) => Promise<boolean>,
): Promise<StateLock> {
  ensureHome(home);
  const file = paths(home).lock;
  const info: LockInfo = { pid: process.pid, port: 0, version, startedAt: Date.now() };
  const write = (flag: 'wx' | 'w') => fs.writeFileSync(file, JSON.stringify(info) + '\n', { flag, mode: 0o600 });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      write('wx');
      return {
        info,
        setPort(port) {
          info.port = port;
          write('w');
        },
        release() {
          try {
            if (parse(fs.readFileSync(file, 'utf8'))?.pid === process.pid) fs.rmSync(file, { force: true });
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readLock(home);
    if (holder && (holder.port === 0 || (await stillCompanion(holder)))) throw new StateDirLocked(home, holder);
    // Stale: its process is gone, or its pid now belongs to something else.
    fs.rmSync(file, { force: true });
  }
  throw new Error(`could not take the lock ${file}: it keeps coming back`);
}
