import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { message, response } from '../support/sse';
import { cli, startCli, type RunningCli } from '../support/cli';
import { freePort } from '../support/ports';
import { tempHomes } from '../support/companion';
import { rawRequest } from '../support/http';
import { prepareCodex, CODEX_BIN } from '../support/codex';
import { fakeKey } from '../support/keys';

const home = tempHomes();

describe('the codex-devtools command line', () => {
  // Sixteen CLI processes one after another: on a loaded machine that outlasts the default 30 s.
  it('prints help and its version, and refuses unknown flags and bad values in one line', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: codex-devtools \[command\]/);
    for (const sub of ['start', 'run', 'setup', 'doctor', 'token', 'profile', 'prune']) {
      const r = await cli([sub, '--help']);
      expect(r.code, sub).toBe(0);
      expect(r.stdout, sub).toContain('Usage');
    }
    const version = await cli(['--version']);
    expect(version.stdout.trim()).toBe(JSON.parse(fs.readFileSync('package.json', 'utf8')).version);
    for (const args of [
      ['--bogus'],
      ['start', '--port', 'abc'],
      ['start', '--port', '70000'],
      ['start', '--max-size', 'lots'],
      ['start', '--upstream', 'ftp://x'],
      ['frob'],
      ['profile', 'zap'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toMatch(/^codex-devtools: /);
    }
  }, 120_000);

  it('says so and exits non-zero when another companion already holds the port', async () => {
    const port = await freePort();
    const h = home();
    const first = startCli(['--port', String(port), '--home', h]);
    try {
      await first.waitFor('listening on');
      expect(first.output()).toContain(`Pairing code: ${port}:${fs.readFileSync(path.join(h, 'token'), 'utf8').trim()}`);
      expect(first.output()).toContain(`openai_base_url="http://127.0.0.1:${port}/v1"`);
      expect(first.output()).toMatch(/Load unpacked → .*chrome-mv3/);
      const second = await cli(['--port', String(port), '--home', home()]);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/already running on 127\.0\.0\.1:\d+/);
    } finally {
      await first.stop();
    }
  });

  it('prints the token, the pairing code and the development pairing link, and rotates it; the running companion takes the new one', async () => {
    const port = await freePort();
    const h = home();
    const server = startCli(['--port', String(port), '--home', h]);
    try {
      await server.waitFor('listening on');
      const t1 = await cli(['token', '--home', h, '--port', String(port)]);
      const token = fs.readFileSync(path.join(h, 'token'), 'utf8').trim();
      expect(t1.stdout).toContain(`Token: ${token}`);
      expect(t1.stdout).toContain(`Pairing code: ${port}:${token}`);
      expect(t1.stdout).toContain(`chrome-extension://dceflbcgefibjiafpacongiijjkjedae/options.html#port=${port}&token=${token}`);
      expect(fs.statSync(path.join(h, 'token')).mode & 0o777).toBe(0o600);
      const t2 = await cli(['token', '--home', h, '--rotate']);
      const rotated = fs.readFileSync(path.join(h, 'token'), 'utf8').trim();
      expect(rotated).not.toBe(token);
      expect(t2.stdout).toContain(rotated);
      const get = (t: string) => rawRequest(`http://127.0.0.1:${port}/api/status`, { headers: { authorization: `Bearer ${t}` } });
      expect((await get(token)).status).toBe(401);
      expect((await get(rotated)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('pauses and resumes capture through the running companion', async () => {
    const port = await freePort();
    const h = home();
    const server = startCli(['--port', String(port), '--home', h]);
    try {
      await server.waitFor('listening on');
      expect((await cli(['pause', '--port', String(port), '--home', h])).stdout).toMatch(/paused/);
      const token = fs.readFileSync(path.join(h, 'token'), 'utf8').trim();
      const status = async () =>
        JSON.parse(
          (await rawRequest(`http://127.0.0.1:${port}/api/status`, { headers: { authorization: `Bearer ${token}` } })).body.toString(),
        );
      expect((await status()).capture.paused).toBe(true);
      expect((await cli(['resume', '--port', String(port), '--home', h])).stdout).toMatch(/resumed/);
      expect((await status()).capture.paused).toBe(false);
    } finally {
      await server.stop();
    }
  });

  it('doctor says what to fix when Codex is set up for a companion that is not running', async () => {
    const port = await freePort();
    const prepared = prepareCodex({ prompt: 'x', provider: 'builtin', config: `openai_base_url = "http://127.0.0.1:${port}/v1"\n` });
    try {
      const r = await cli(['doctor', '--port', String(port), '--home', home(), '--codex', CODEX_BIN], {
        env: { CODEX_HOME: prepared.codexHome },
      });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('✓ Codex 0.169.0');
      expect(r.stdout).toMatch(/✗ Codex is set up to go through 127\.0\.0\.1:\d+, but nothing answers there/);
      expect(r.stdout).toContain('codex-devtools setup --remove');
    } finally {
      prepared.cleanup();
    }
  });
});

describe('profiles from the command line', () => {
  let up: FakeUpstream;
  let other: FakeUpstream;
  let server: RunningCli;
  let port: number;
  let h: string;
  const KEY = fakeKey('profile-secret-0123456789abcdef');
  const CODEX_KEY = fakeKey('codex-own-key-abcdefghijkl');
  const codexRequest = () =>
    rawRequest(`http://127.0.0.1:${port}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CODEX_KEY}` },
      body: JSON.stringify({ model: 'gpt-5-codex', input: [] }),
    });

  beforeAll(async () => {
    up = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('default route')]) }) });
    other = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('profile route')]) }) });
    port = await freePort();
    h = home();
    server = startCli(['--port', String(port), '--home', h, '--upstream', up.baseUrl]);
    await server.waitFor('listening on');
  });
  afterAll(async () => {
    await server.stop();
    await up.close();
    await other.close();
  });

  it('adds a profile with a key from the environment, shows the key only masked, and keeps it in a 0600 file', async () => {
    const add = await cli(
      [
        'profile',
        'add',
        'local',
        '--url',
        other.baseUrl,
        '--name',
        'Local gateway',
        '--key-env',
        'MY_PROFILE_KEY',
        '--model',
        'gpt-6.1-sol',
        '--port',
        String(port),
        '--home',
        h,
      ],
      { env: { MY_PROFILE_KEY: KEY } },
    );
    expect(add.code).toBe(0);
    expect(add.stdout).toContain('[redacted …cdef]');
    expect(add.stdout).not.toContain(KEY);
    const list = await cli(['profile', 'list', '--port', String(port), '--home', h]);
    expect(list.stdout).toMatch(/\* default/);
    expect(list.stdout).toContain('local');
    expect(list.stdout).not.toContain(KEY);
    expect(fs.statSync(path.join(h, 'profiles.json')).mode & 0o777).toBe(0o600);
  });

  it("switches the upstream and key without restarting, never sending Codex's own key to the profile", async () => {
    await codexRequest();
    expect(up.requests.at(-1)?.headers.authorization).toBe(`Bearer ${CODEX_KEY}`);
    expect((await cli(['profile', 'use', 'local', '--port', String(port), '--home', h])).code).toBe(0);
    const res = await codexRequest();
    expect(res.body.toString()).toContain('profile route');
    const got = other.requests.at(-1)!;
    expect(got.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(got.headers)).not.toContain(CODEX_KEY);
    expect(got.body.model).toBe('gpt-6.1-sol');
    const token = fs.readFileSync(path.join(h, 'token'), 'utf8').trim();
    const latest = async () =>
      JSON.parse(
        (
          await rawRequest(`http://127.0.0.1:${port}/api/exchanges?limit=1`, { headers: { authorization: `Bearer ${token}` } })
        ).body.toString(),
      ).items[0];
    // Capture runs in a worker thread after the bytes were forwarded: wait for the record.
    await expect.poll(async () => (await latest())?.route.profileId, { timeout: 15_000 }).toBe('local');
    expect((await latest()).route).toMatchObject({
      profileId: 'local',
      upstream: other.baseUrl,
      modelRequested: 'gpt-5-codex',
      modelSent: 'gpt-6.1-sol',
    });
  });

  it('fails requests with a clear error naming an unusable profile, and sends them nowhere else', async () => {
    const file = path.join(h, 'profiles.json');
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    data.profiles[0].baseUrl = 'http://gateway.example.com/v1';
    fs.writeFileSync(file, JSON.stringify(data));
    const restart = async () => {
      await server.stop();
      server = startCli(['--port', String(port), '--home', h, '--upstream', up.baseUrl]);
      await server.waitFor('listening on');
    };
    await restart();
    const before = up.requests.length + other.requests.length;
    const res = await codexRequest();
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body.toString()).error.message).toMatch(/active profile "local" cannot be used: .*HTTPS/);
    expect(up.requests.length + other.requests.length).toBe(before);
    expect((await cli(['profile', 'use', 'default', '--port', String(port), '--home', h])).code).toBe(0);
    expect((await codexRequest()).status).toBe(200);
    expect((await cli(['profile', 'remove', 'local', '--port', String(port), '--home', h])).code).toBe(0);
  });
});
