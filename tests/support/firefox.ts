/**
 * Real Firefox ESR (Debian's `firefox-esr`, headless) driven over WebDriver BiDi with the `ws`
 * package: playwright-core cannot drive a stock Firefox. The extension is installed from its
 * folder with a fixed moz-extension UUID (set in user.js), so its pages have known URLs. Test-only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { SCREENSHOT_DIR } from './browser';

export const GECKO_ID = 'codex-devtools@codex-devtools';
/** Any fixed UUID works; this one is ours. */
export const FIREFOX_UUID = '6b1c7c8e-2f4a-4d7e-9a55-0c0de7d00151';

export function firefoxPath(): string | null {
  for (const p of [process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox']) if (p && fs.existsSync(p)) return p;
  return null;
}

export interface FirefoxSession {
  uuid: string;
  /** Navigates the tab and waits for the page to load. */
  navigate(url: string): Promise<void>;
  /** Evaluates an expression in the page (awaiting promises) and returns its JSON value. */
  evaluate<T>(expression: string): Promise<T>;
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/** Firefox with the extension in `extensionDir` installed, or a plain Firefox when it is null. */
export async function launchFirefoxWithExtension(extensionDir: string | null): Promise<FirefoxSession> {
  const exe = firefoxPath();
  if (!exe) throw new Error("Firefox not found: install Debian's `firefox-esr` package or set FIREFOX_PATH.");
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-devtools-firefox-'));
  fs.writeFileSync(
    path.join(profile, 'user.js'),
    [
      `user_pref("extensions.webextensions.uuids", ${JSON.stringify(JSON.stringify({ [GECKO_ID]: FIREFOX_UUID }))});`,
      'user_pref("browser.shell.checkDefaultBrowser", false);',
      'user_pref("datareporting.policy.dataSubmissionEnabled", false);',
      'user_pref("app.update.auto", false);',
      'user_pref("network.dns.disableIPv6", true);',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    exe,
    ['--headless', '--no-remote', '--profile', profile, '--remote-debugging-port', '0', '--remote-allow-system-access', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' } },
  );
  const wsUrl = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`Firefox did not start WebDriver BiDi:\n${err}`)), 20_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`Firefox exited (${code}):\n${err}`)));
  });
  const ws = new WebSocket(`${wsUrl}/session`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let id = 0;
  const pending = new Map<number, Pending>();
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as { id?: number; type: string; result?: unknown; error?: string; message?: string };
    if (m.id === undefined) return;
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.type === 'error') p?.reject(new Error(`${m.error}: ${m.message}`));
    else p?.resolve(m.result);
  });
  const send = <T>(method: string, params: unknown = {}): Promise<T> =>
    new Promise((resolve, reject) => {
      const n = ++id;
      pending.set(n, { resolve: resolve as (v: unknown) => void, reject });
      ws.send(JSON.stringify({ id: n, method, params }));
    });

  await send('session.new', { capabilities: {} });
  if (extensionDir) await send('webExtension.install', { extensionData: { type: 'path', path: extensionDir } });
  const tree = await send<{ contexts: { context: string }[] }>('browsingContext.getTree', {});
  const context = tree.contexts[0].context;

  return {
    uuid: FIREFOX_UUID,
    navigate: async (url) => {
      await send('browsingContext.navigate', { context, url, wait: 'complete' });
    },
    evaluate: async <T>(expression: string) => {
      const r = await send<{ type: string; result?: { value?: unknown }; exceptionDetails?: { text: string } }>('script.evaluate', {
        expression: `(async () => JSON.stringify(await (${expression})))()`,
        target: { context },
        awaitPromise: true,
      });
      if (r.type === 'exception') throw new Error(`evaluate failed: ${r.exceptionDetails?.text}`);
      const v = r.result?.value;
      return (typeof v === 'string' ? JSON.parse(v) : undefined) as T;
    },
    screenshot: async (name) => {
      const { data } = await send<{ data: string }>('browsingContext.captureScreenshot', { context });
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      fs.writeFileSync(file, Buffer.from(data, 'base64'));
      return file;
    },
    close: async () => {
      await send('browser.close', {}).catch(() => undefined); // the socket closes with the browser
      ws.close();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
        await exited;
      }
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
