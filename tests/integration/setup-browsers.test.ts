/**
 * The test command's first step (scripts/lib/browsers.mjs, `npm run setup:browsers`): the installed
 * browsers are hidden behind an empty search path (CODEX_DEVTOOLS_BROWSER_PATH) and a PATH that holds
 * only the tools we choose, so the machine's own Chromium and Firefox stay installed and untouched.
 * A stand-in `apt-get` records what it is asked and "installs" into the hidden search path.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findBrowser, searchDirs } from '../../scripts/lib/browsers.mjs';

let root: string;
let bin: string;
let browsers: string;

function link(name: string): void {
  const real = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  fs.symlinkSync(real, path.join(bin, name));
}

function executable(file: string, body = '#!/bin/sh\nexit 0\n'): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, body, { mode: 0o755 });
}

/** A fake apt-get: logs its arguments; `install` creates the browsers in the searched folder. */
function fakeAptGet(): string {
  const log = path.join(root, 'apt-get.log');
  executable(
    path.join(bin, 'apt-get'),
    `#!/bin/sh\necho "$@" >> ${log}\nif [ "$1" = install ]; then printf '#!/bin/sh\\n' > ${browsers}/chromium; printf '#!/bin/sh\\n' > ${browsers}/firefox-esr; /bin/chmod +x ${browsers}/chromium ${browsers}/firefox-esr; fi\n`,
  );
  if (process.getuid?.() !== 0) executable(path.join(bin, 'sudo'), '#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n');
  return log;
}

function run(script: string) {
  const env: NodeJS.ProcessEnv = { PATH: bin, HOME: root, CODEX_DEVTOOLS_BROWSER_PATH: browsers };
  return spawnSync(process.execPath, [path.resolve('scripts', script)], { env, encoding: 'utf8', timeout: 60_000 });
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-devtools-setup-'));
  bin = path.join(root, 'bin');
  browsers = path.join(root, 'browsers');
  fs.mkdirSync(bin);
  fs.mkdirSync(browsers);
  for (const tool of ['git', 'openssl', 'zstd']) link(tool);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the browser check of npm test', () => {
  it('fails at once with one line naming `npm run setup:browsers` when the browsers are missing and cannot be installed', () => {
    const r = run('test.mjs');
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split('\n');
    // One line, and nothing ran after it (no prettier, no build, no vitest).
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('chromium, firefox not found');
    expect(lines[0]).toContain('npm run setup:browsers');
    expect(r.stderr).toBe('');
  });

  it('installs the Debian packages chromium and firefox-esr when apt-get can run, and says so', () => {
    const log = fakeAptGet();
    const r = run('setup-browsers.mjs');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/installing the Debian packages chromium firefox-esr (as root|with sudo)/);
    expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      'update -qq',
      'install -y -qq --no-install-recommends chromium firefox-esr',
    ]);
    expect(r.stdout).toContain(`chromium: ${path.join(browsers, 'chromium')}`);
    expect(r.stdout).toContain(`firefox: ${path.join(browsers, 'firefox-esr')}`);
  });

  it('installs nothing when everything is found', () => {
    const log = fakeAptGet();
    executable(path.join(browsers, 'chromium'));
    executable(path.join(browsers, 'firefox-esr'));
    const r = run('setup-browsers.mjs');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('everything the tests need is here');
    expect(fs.existsSync(log)).toBe(false);
  });

  it('names a missing tool the tests run (zstd) with its package', () => {
    fs.rmSync(path.join(bin, 'zstd'));
    executable(path.join(browsers, 'chromium'));
    executable(path.join(browsers, 'firefox-esr'));
    const r = run('setup-browsers.mjs');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('zstd missing and not installed (no apt-get on the PATH)');
  });
});

describe('finding the browsers', () => {
  it('prefers CHROMIUM_PATH / FIREFOX_PATH, then the search path in order', () => {
    executable(path.join(browsers, 'chromium-browser'));
    executable(path.join(browsers, 'firefox'));
    const env = { CODEX_DEVTOOLS_BROWSER_PATH: browsers };
    expect(findBrowser('chromium', { env, platform: 'linux' })).toBe(path.join(browsers, 'chromium-browser'));
    executable(path.join(browsers, 'chromium'));
    expect(findBrowser('chromium', { env, platform: 'linux' })).toBe(path.join(browsers, 'chromium'));
    const own = path.join(root, 'elsewhere', 'my-chromium');
    executable(own);
    expect(findBrowser('chromium', { env: { ...env, CHROMIUM_PATH: own }, platform: 'linux' })).toBe(own);
    // A CHROMIUM_PATH that does not exist falls back to the search.
    expect(findBrowser('chromium', { env: { ...env, CHROMIUM_PATH: '/nonexistent' }, platform: 'linux' })).toBe(
      path.join(browsers, 'chromium'),
    );
    expect(findBrowser('firefox', { env, platform: 'linux' })).toBe(path.join(browsers, 'firefox'));
  });

  it('ignores a file that is not executable', () => {
    fs.writeFileSync(path.join(browsers, 'chromium'), 'not a program', { mode: 0o644 });
    expect(findBrowser('chromium', { env: { CODEX_DEVTOOLS_BROWSER_PATH: browsers }, platform: 'linux' })).toBeNull();
  });

  it('on macOS finds Chrome and Firefox app bundles in /Applications, Chromium first', () => {
    const apps = path.join(root, 'Applications');
    const chrome = path.join(apps, 'Google Chrome.app/Contents/MacOS/Google Chrome');
    const firefox = path.join(apps, 'Firefox.app/Contents/MacOS/firefox');
    executable(chrome);
    executable(firefox);
    const env = { CODEX_DEVTOOLS_BROWSER_PATH: apps };
    expect(findBrowser('chromium', { env, platform: 'darwin' })).toBe(chrome);
    expect(findBrowser('firefox', { env, platform: 'darwin' })).toBe(firefox);
    const chromium = path.join(apps, 'Chromium.app/Contents/MacOS/Chromium');
    executable(chromium);
    expect(findBrowser('chromium', { env, platform: 'darwin' })).toBe(chromium);
    // Without the override the defaults are /Applications and ~/Applications.
    expect(searchDirs({ HOME: '/Users/u', PATH: '' }, 'darwin')).toEqual(['/Applications', '/Users/u/Applications']);
  });
});
