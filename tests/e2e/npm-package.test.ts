/**
 * The published package as a user gets it: `npm pack` of the built project, installed into an
 * empty folder from the local npm cache (`--offline`, or `--prefer-offline` where the cache lacks
 * something), then `npx codex-devtools --help` and `start`, which must answer /api/health and find
 * the extension folders inside the installed package. The tarball holds only what runs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports';

interface PackResult {
  filename: string;
  files: { path: string }[];
}

/** The tests may run under `npm test`, whose npm_* variables would point npm back at this project. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}

const npm = (args: string[], cwd: string) => spawnSync('npm', args, { cwd, env: cleanEnv(), encoding: 'utf8', timeout: 180_000 });

/** What the package may hold: the companion bundle and the demo's history, the two unpacked extensions, and npm's own files. */
const ALLOWED =
  /^(LICENSE|README\.md|package\.json|dist\/companion\/[\w.-]+\.mjs|dist\/companion\/demo-traffic\.jsonl|dist\/extension\/(chrome|firefox)-mv3\/[\w./-]+)$/;

describe('the npm package', () => {
  let root: string;
  let app: string;
  let pack: PackResult;
  let installedWith: string;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-devtools-pack-'));
    app = path.join(root, 'app');
    fs.mkdirSync(app);
    // --ignore-scripts: pack exactly what `npm run build` made (npm test builds before the tests).
    const p = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', root], process.cwd());
    expect(p.status, p.stderr).toBe(0);
    pack = (JSON.parse(p.stdout.slice(p.stdout.indexOf('['))) as PackResult[])[0];
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'empty-app', version: '1.0.0', private: true }));
    const tarball = path.join(root, pack.filename);
    for (const mode of ['--offline', '--prefer-offline']) {
      const r = npm(['install', mode, '--no-audit', '--no-fund', '--loglevel=error', tarball], app);
      if (r.status === 0) {
        installedWith = mode;
        break;
      }
    }
  }, 240_000);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('holds the companion, the demo traffic and both extensions, and nothing else (no sources, tests, fixtures, zips or maps)', () => {
    const files = pack.files.map((f) => f.path);
    expect(files.filter((f) => !ALLOWED.test(f))).toEqual([]);
    expect(files.filter((f) => /fixture|\.test\.|\.map$|\.zip$|\.tsx?$/.test(f))).toEqual([]);
    for (const f of [
      'dist/companion/cli.mjs',
      'dist/companion/capture-worker.mjs',
      'dist/companion/demo-traffic.jsonl',
      'dist/extension/chrome-mv3/manifest.json',
      'dist/extension/firefox-mv3/manifest.json',
    ]) {
      expect(files).toContain(f);
    }
  });

  it('installs into an empty folder from the local npm cache', () => {
    console.log(`npm package: installed with npm install ${installedWith}`);
    expect(installedWith).toBeDefined();
    expect(fs.existsSync(path.join(app, 'node_modules/.bin/codex-devtools'))).toBe(true);
  });

  it('`npx codex-devtools --help` prints the usage', () => {
    const r = spawnSync('npx', ['--no-install', 'codex-devtools', '--help'], {
      cwd: app,
      env: cleanEnv(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^codex-devtools \d+\.\d+\.\d+/);
    expect(r.stdout).toContain('Usage: codex-devtools [command] [options]');
  });

  it('`npx codex-devtools start` serves /api/health and finds the extensions inside the package', async () => {
    const port = await freePort();
    const home = path.join(root, 'home');
    const child: ChildProcess = spawn('npx', ['--no-install', 'codex-devtools', 'start', '--port', String(port), '--home', home], {
      cwd: app,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: npx runs the CLI as a child, and the whole group is stopped below.
      detached: true,
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await expect.poll(() => out, { timeout: 30_000 }).toContain('listening on');
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(res.status).toBe(200);
      const version = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;
      expect(await res.json()).toEqual({ ok: true, version });
      const installed = fs.realpathSync(path.join(app, 'node_modules/codex-devtools/dist/extension'));
      expect(out).toContain(path.join(installed, 'chrome-mv3'));
      expect(out).toContain(path.join(installed, 'firefox-mv3', 'manifest.json'));
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }, 60_000);
});
