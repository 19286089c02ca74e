/**
 * The built command line on one state directory: a second companion is refused and names the
 * first, a companion killed with SIGKILL leaves a lock the next one takes over, and the other
 * commands find the running companion's port through the lock (no --port needed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startCli, type RunningCli } from '../support/cli';
import { freePort } from '../support/ports';
import { tempHome } from '../support/companion';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { message, response } from '../support/sse';
import { rawRequest } from '../support/http';
import { fakeKey } from '../support/keys';

describe('the state directory lock, from the command line', () => {
  let up: FakeUpstream;
  let other: FakeUpstream;
  let h: string;
  let port: number;
  let server: RunningCli | null = null;

  beforeAll(async () => {
    up = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('default route')]) }) });
    other = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('profile route')]) }) });
    h = tempHome();
    port = await freePort();
  });
  afterAll(async () => {
    await server?.stop();
    await up.close();
    await other.close();
    fs.rmSync(h, { recursive: true, force: true });
  });

  it('refuses a second companion on the same --home, on another port, naming the running one', async () => {
    server = startCli(['--port', String(port), '--home', h, '--upstream', up.baseUrl]);
    await server.waitFor('listening on');
    const pid = server.child.pid;
    const second = await cli(['--port', String(await freePort()), '--home', h]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `Another codex-devtools companion (pid ${pid}, port ${port}) is already using the state directory ${h}`,
    );
  });

  it('token --home prints the port of the companion using that state directory', async () => {
    const r = await cli(['token', '--home', h]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`#port=${port}&token=`);
    expect(r.stdout).toContain(`port ${port}.`);
  });

  it('profile add and use --home reach the running companion on its non-default port: the switch applies at once', async () => {
    const env = { WORK_KEY: fakeKey('work-key-0123456789abc') };
    expect((await cli(['profile', 'add', 'work', '--url', other.baseUrl, '--key-env', 'WORK_KEY', '--home', h], { env })).code).toBe(0);
    expect((await cli(['profile', 'use', 'work', '--home', h])).code).toBe(0);
    const res = await rawRequest(`http://127.0.0.1:${port}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fakeKey('codex-own-0123456789')}` },
      body: '{}',
    });
    expect(res.body.toString()).toContain('profile route');
    expect(other.requests.at(-1)?.headers.authorization).toBe(`Bearer ${env.WORK_KEY}`);
  });

  it('pause --home reaches the running companion', async () => {
    const r = await cli(['pause', '--home', h]);
    expect(r.stdout).toContain('Capture paused');
    const token = fs.readFileSync(path.join(h, 'token'), 'utf8').trim();
    const status = JSON.parse(
      (await rawRequest(`http://127.0.0.1:${port}/api/status`, { headers: { authorization: `Bearer ${token}` } })).body.toString(),
    );
    expect(status.capture.paused).toBe(true);
    expect((await cli(['resume', '--home', h])).code).toBe(0);
  });

  it('after kill -9 the lock is stale, and the next companion takes it over', async () => {
    server!.child.kill('SIGKILL');
    await server!.exited;
    expect(fs.existsSync(path.join(h, 'companion.json'))).toBe(true);
    const next = await freePort();
    server = startCli(['--port', String(next), '--home', h, '--upstream', up.baseUrl]);
    await server.waitFor('listening on');
    expect(JSON.parse(fs.readFileSync(path.join(h, 'companion.json'), 'utf8'))).toMatchObject({ pid: server.child.pid, port: next });
    expect((await cli(['token', '--home', h])).stdout).toContain(`#port=${next}&token=`);
  });
});
