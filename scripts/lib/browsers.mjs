// Where the test browsers and the command-line tools the tests run are, and how to install the missing
// ones. One module for the test command, `npm run setup:browsers` and the browser test helpers, so they
// never disagree about what "found" means. Plain JavaScript: the scripts run on bare Node, without tsx.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Names a browser goes by, per platform, relative to a search directory. On macOS the app bundles
 * in /Applications are searched as well as the command names on the PATH. Chromium comes before
 * Google Chrome: branded Chrome may refuse `--load-extension`.
 */
const CANDIDATES = {
  chromium: {
    linux: ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'],
    darwin: [
      'Chromium.app/Contents/MacOS/Chromium',
      'Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'chromium',
    ],
  },
  firefox: {
    linux: ['firefox-esr', 'firefox'],
    darwin: ['Firefox.app/Contents/MacOS/firefox', 'Firefox Developer Edition.app/Contents/MacOS/firefox', 'firefox'],
  },
};

/** The tools the tests run besides the browsers (Codex needs a git work tree; TLS and zstd fixtures are made at test time). */
export const TOOLS = ['git', 'openssl', 'zstd'];

/** Debian package for each thing we look for. */
export const DEBIAN_PACKAGES = { chromium: 'chromium', firefox: 'firefox-esr', git: 'git', openssl: 'openssl', zstd: 'zstd' };

/**
 * The directories searched, in order. `CODEX_DEVTOOLS_BROWSER_PATH` (PATH syntax) replaces the
 * defaults entirely, which is also how a test hides the installed browsers.
 * @param {NodeJS.ProcessEnv} env
 * @param {NodeJS.Platform} platform
 * @returns {string[]}
 */
export function searchDirs(env = process.env, platform = process.platform) {
  if (env.CODEX_DEVTOOLS_BROWSER_PATH !== undefined) return env.CODEX_DEVTOOLS_BROWSER_PATH.split(path.delimiter).filter(Boolean);
  const fromPath = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const fixed =
    platform === 'darwin'
      ? ['/Applications', path.join(env.HOME ?? os.homedir(), 'Applications')]
      : ['/usr/bin', '/usr/local/bin', '/snap/bin'];
  return [...new Set([...fixed, ...fromPath])];
}

/** @param {string} file */
function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The browser's executable, or null. `CHROMIUM_PATH` / `FIREFOX_PATH` name one directly and win
 * when they point at an executable.
 * @param {'chromium' | 'firefox'} kind
 * @param {{ env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform }} [opts]
 * @returns {string | null}
 */
export function findBrowser(kind, { env = process.env, platform = process.platform } = {}) {
  const override = kind === 'chromium' ? env.CHROMIUM_PATH : env.FIREFOX_PATH;
  if (override && isExecutable(override)) return override;
  const names = CANDIDATES[kind][platform === 'darwin' ? 'darwin' : 'linux'];
  for (const name of names) {
    for (const dir of searchDirs(env, platform)) {
      const file = path.join(dir, name);
      if (isExecutable(file)) return file;
    }
  }
  return null;
}

/**
 * A command on the PATH, or null.
 * @param {string} name
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string | null}
 */
export function findCommand(name, env = process.env) {
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name);
    if (isExecutable(file)) return file;
  }
  return null;
}

/**
 * What is there and what is missing.
 * @param {{ env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform }} [opts]
 * @returns {{ found: Record<string, string>, missing: string[] }}
 */
export function survey({ env = process.env, platform = process.platform } = {}) {
  /** @type {Record<string, string>} */
  const found = {};
  /** @type {string[]} */
  const missing = [];
  for (const kind of /** @type {const} */ (['chromium', 'firefox'])) {
    const p = findBrowser(kind, { env, platform });
    if (p) found[kind] = p;
    else missing.push(kind);
  }
  for (const tool of TOOLS) {
    const p = findCommand(tool, env);
    if (p) found[tool] = p;
    else missing.push(tool);
  }
  return { found, missing };
}

/**
 * How the missing Debian packages can be installed here: as root, through sudo (without a password
 * unless `interactive`), or not at all (with the reason).
 * @param {{ env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform, interactive?: boolean }} [opts]
 * @returns {{ ok: true, how: string, command: string[] } | { ok: false, reason: string }}
 */
export function installer({ env = process.env, platform = process.platform, interactive = false } = {}) {
  const aptGet = platform === 'linux' ? findCommand('apt-get', env) : null;
  if (!aptGet) return { ok: false, reason: platform === 'darwin' ? 'not a Debian system' : 'no apt-get on the PATH' };
  if (process.getuid?.() === 0) return { ok: true, how: 'as root', command: [aptGet] };
  const sudo = findCommand('sudo', env);
  if (!sudo) return { ok: false, reason: 'not root and no sudo' };
  if (spawnSync(sudo, ['-n', 'true'], { env, stdio: 'ignore' }).status === 0)
    return { ok: true, how: 'with sudo', command: [sudo, '-n', aptGet] };
  if (interactive) return { ok: true, how: 'with sudo (it may ask for your password)', command: [sudo, aptGet] };
  return { ok: false, reason: 'not root and sudo needs a password' };
}

/**
 * Installs the Debian packages for `missing` with `apt-get update` + `apt-get install`.
 * @param {string[]} missing
 * @param {string[]} command the installer's command prefix (from `installer`)
 * @param {NodeJS.ProcessEnv} env
 * @returns {boolean}
 */
export function install(missing, command, env = process.env) {
  const packages = missing.map((m) => DEBIAN_PACKAGES[/** @type {keyof typeof DEBIAN_PACKAGES} */ (m)]);
  const [cmd, ...pre] = command;
  const run = (/** @type {string[]} */ args) =>
    spawnSync(cmd, [...pre, ...args], { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: ['ignore', 'ignore', 'inherit'] })
      .status === 0;
  return run(['update', '-qq']) && run(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
}

/** What to do by hand where nothing can be installed for the user. */
export function manualHint(platform = process.platform) {
  return platform === 'darwin'
    ? 'install Chromium or Google Chrome and Firefox in /Applications (and `brew install zstd`), or set CHROMIUM_PATH / FIREFOX_PATH'
    : 'install the Debian packages chromium firefox-esr git openssl zstd, or set CHROMIUM_PATH / FIREFOX_PATH';
}

/**
 * The whole step: finds everything, installs what is missing when it can (saying how), and returns
 * whether the tests can run. `log` gets each line to print.
 * @param {{ env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform, interactive?: boolean, log?: (line: string) => void }} [opts]
 * @returns {{ ok: boolean, found: Record<string, string>, missing: string[], reason?: string }}
 */
export function ensureTestTools({ env = process.env, platform = process.platform, interactive = false, log = console.log } = {}) {
  const first = survey({ env, platform });
  if (first.missing.length === 0) return { ok: true, ...first };
  const inst = installer({ env, platform, interactive });
  if (!inst.ok) return { ok: false, ...first, reason: inst.reason };
  const packages = first.missing.map((m) => DEBIAN_PACKAGES[/** @type {keyof typeof DEBIAN_PACKAGES} */ (m)]);
  log(`setup: ${first.missing.join(', ')} missing: installing the Debian packages ${packages.join(' ')} ${inst.how} (apt-get)`);
  if (!install(first.missing, inst.command, env)) return { ok: false, ...survey({ env, platform }), reason: 'apt-get failed' };
  const after = survey({ env, platform });
  return after.missing.length === 0 ? { ok: true, ...after } : { ok: false, ...after, reason: 'still missing after apt-get' };
}
