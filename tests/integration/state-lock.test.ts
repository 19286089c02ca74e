import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestCompanion, tempHome, type TestCompanion } from '../support/companion';
import { readLock, StateDirLocked } from '../../companion/lib/state-lock';

const lockFile = (home: string) => path.join(home, 'companion.json');

/** A pid that existed and is gone: a child that already exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('one companion per state directory', () => {
  const open: TestCompanion[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c.dispose();
  });

  it('records its pid and port in the lock while it runs, and removes the lock when it stops', async () => {
    const c = await startTestCompanion();
    expect(readLock(c.home)).toMatchObject({ pid: process.pid, port: c.port });
    const home = c.home;
    await c.close();
    expect(fs.existsSync(lockFile(home))).toBe(false);
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('refuses a second companion on the same state directory, naming the running one, and leaves its lock alone', async () => {
    const first = await startTestCompanion();
    open.push(first);
    const err = await startTestCompanion({ home: first.home }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StateDirLocked);
    expect((err as Error).message).toContain(`pid ${process.pid}, port ${first.port}`);
    expect(readLock(first.home)?.port).toBe(first.port);
    // The first one keeps working on its own store.
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
  });

  it('takes over a lock whose process is gone (kill -9, a crash)', async () => {
    const home = tempHome();
    fs.writeFileSync(lockFile(home), JSON.stringify({ pid: deadPid(), port: 9, version: '0.1.0', startedAt: 1 }));
    const c = await startTestCompanion({ home });
    open.push(c);
    expect(readLock(home)).toMatchObject({ pid: process.pid, port: c.port });
  });

  it('takes over a lock whose pid is alive but is no companion any more (the pid was reused)', async () => {
    const home = tempHome();
    // This very process is alive, and nothing answers as a companion on port 9.
    fs.writeFileSync(lockFile(home), JSON.stringify({ pid: process.pid, port: 9, version: '0.1.0', startedAt: 1 }));
    const c = await startTestCompanion({ home });
    open.push(c);
    expect(readLock(home)?.port).toBe(c.port);
  });

  it('takes over a lock file that cannot be read', async () => {
    const home = tempHome();
    fs.writeFileSync(lockFile(home), '{ torn');
    const c = await startTestCompanion({ home });
    open.push(c);
    expect(readLock(home)?.port).toBe(c.port);
  });
});
