/**
 * The built companion runs its capture worker below normal priority and forwards at normal
 * priority: on a busy machine the scheduler prefers the thread that carries Codex's bytes.
 * Linux gives each thread its own nice value, read here from /proc.
 */
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../support/cli';
import { freePort } from '../support/ports';
import { tempHome } from '../support/companion';

/** Each thread's id and nice value (field 19 of its stat line; the name before it may hold spaces). */
function niceByThread(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(tid), Number(fields[19 - 3]));
  }
  return out;
}

// The companion inherits this process's nice value; below-normal is 10, which needs a start under it.
describe.skipIf(process.platform !== 'linux' || os.getPriority() >= 10)('thread priorities of the running companion', () => {
  const h = tempHome();
  let server: RunningCli | null = null;
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(h, { recursive: true, force: true });
  });

  it('lowers the capture worker alone; the main thread, which forwards, keeps normal priority', async () => {
    const port = await freePort();
    server = startCli(['--port', String(port), '--home', h, '--upstream', 'http://127.0.0.1:9/v1', '--log-level', 'warn']);
    await server.waitFor('listening on');
    const pid = server.child.pid!;
    const own = os.getPriority();
    // The worker sets its priority as its first step, which may come just after the banner.
    let nice = niceByThread(pid);
    for (const until = Date.now() + 20_000; ![...nice.values()].includes(10) && Date.now() < until; nice = niceByThread(pid))
      await new Promise((r) => setTimeout(r, 100));
    expect(nice.get(pid)).toBe(own);
    const lowered = [...nice].filter(([, n]) => n !== own);
    expect(lowered).toEqual([[expect.any(Number), 10]]);
    expect(lowered[0][0]).not.toBe(pid);
  });
});
