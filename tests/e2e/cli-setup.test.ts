import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { scenarios } from '../support/scenarios';
import { runCodex, prepareCodex, CODEX_BIN } from '../support/codex';
import { cli, startCli, type RunningCli } from '../support/cli';
import { freePort } from '../support/ports';
import { tempHome } from '../support/companion';
import { rawRequest } from '../support/http';
import { fakeKey } from '../support/keys';

describe('codex-devtools setup with the real Codex CLI', () => {
  let upstream: FakeUpstream;
  let port: number;
  let home: string;
  let server: RunningCli;
  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: scenarios.text() });
    port = await freePort();
    home = tempHome();
    server = startCli(['--port', String(port), '--home', home, '--upstream', upstream.baseUrl, '--no-websocket']);
    await server.waitFor('listening on');
  });
  afterAll(async () => {
    await server.stop();
    await upstream.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('routes plain `codex exec` through the companion in between, and leaves config.toml byte-identical after --remove', async () => {
    // A user's config in the built-in provider's style, ending inside a table.
    const original = 'model = "gpt-5-codex"\nmodel_reasoning_summary = "auto"\n\n[tui]\nanimations = false\n';
    const prepared = prepareCodex({ prompt: 'say hello', provider: 'builtin', config: original });
    const file = path.join(prepared.codexHome, 'config.toml');
    const env = { CODEX_HOME: prepared.codexHome };
    try {
      const set = await cli(['setup', '--port', String(port), '--home', home], { env });
      expect(set.code).toBe(0);
      expect(set.stdout).toContain('codex-devtools setup --remove');
      expect(fs.readFileSync(file, 'utf8')).not.toBe(original);

      const before = upstream.modelRequests().length;
      const run = await runCodex({ prompt: 'say hello', provider: 'builtin', config: fs.readFileSync(file, 'utf8') });
      run.cleanup();
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain('Hello from the fake upstream.');
      expect(upstream.modelRequests().length).toBe(before + 1);
      const listed = await cli(['doctor', '--port', String(port), '--home', home, '--codex', CODEX_BIN], { env });
      expect(listed.stdout).toMatch(/traffic arrived: [1-9]/);

      const rm = await cli(['setup', '--remove'], { env });
      expect(rm.code).toBe(0);
      expect(fs.readFileSync(file, 'utf8')).toBe(original);
    } finally {
      prepared.cleanup();
    }
  });

  it('refuses, with a clear message, when another local proxy is already configured', async () => {
    const prepared = prepareCodex({ prompt: 'x', provider: 'builtin', config: 'openai_base_url = "http://127.0.0.1:4000/v1"\n' });
    try {
      const r = await cli(['setup', '--port', String(port)], { env: { CODEX_HOME: prepared.codexHome } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/already points Codex at a local proxy/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      prepared.cleanup();
    }
  });
});

describe('a companion started after setup', () => {
  it('forwards to the openai_base_url Codex had before setup, and says so, when no --upstream is given', async () => {
    const gateway = await startFakeUpstream({ scenario: scenarios.text() });
    const port = await freePort();
    const home = tempHome();
    const codexHome = tempHome('codex-home-');
    const file = path.join(codexHome, 'config.toml');
    const env = { CODEX_HOME: codexHome };
    fs.writeFileSync(file, 'openai_base_url = "https://gateway.example.com/v1"\n');
    let server: RunningCli | null = null;
    try {
      expect((await cli(['setup', '--port', String(port)], { env })).code).toBe(0);
      // setup refuses a loopback base URL, so the record is pointed at the local stand-in afterwards.
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll('https://gateway.example.com/v1', gateway.baseUrl));

      server = startCli(['--port', String(port), '--home', home], { env });
      await server.waitFor('listening on');
      expect(server.output()).toContain(
        `API-key requests go on to ${gateway.baseUrl}, the openai_base_url you had before \`codex-devtools setup\` (recorded in ${file})`,
      );
      const res = await rawRequest(`http://127.0.0.1:${port}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fakeKey('api-key-0123456789abcdef')}` },
        body: JSON.stringify({ model: 'gpt-5-codex', input: [] }),
      });
      expect(res.status).toBe(200);
      expect(gateway.modelRequests()).toHaveLength(1);
    } finally {
      await server?.stop();
      await gateway.close();
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(codexHome, { recursive: true, force: true });
    }
  });
});
