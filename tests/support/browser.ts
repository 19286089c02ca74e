/**
 * Real Chromium (Debian's package, driven by playwright-core; never a downloaded browser) with
 * the built extension loaded, headless. Screenshots go to test-results/screenshots (git-ignored).
 * Test-only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROME_EXTENSION_DIR = path.resolve('.output/chrome-mv3');
export const FIREFOX_EXTENSION_DIR = path.resolve('.output/firefox-mv3');
export const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

/** Fixed by the manifest `key` in wxt.config.ts. */
export const CHROME_EXTENSION_ID = 'dceflbcgefibjiafpacongiijjkjedae';

export function chromiumPath(): string {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (p && fs.existsSync(p)) return p;
  }
  throw new Error("Chromium not found: install Debian's `chromium` package (apt-get install chromium) or set CHROMIUM_PATH.");
}

/** Flags every Chromium here starts with: no sandbox (root), no GPU, and no traffic of its own. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Without this Chromium still sends DNS queries at start; the machine has no network.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  /** Opens an extension page, e.g. `popup.html?port=1234`. */
  open(pagePath: string): Promise<Page>;
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

export async function launchWithExtension(opts: { extraArgs?: string[] } = {}): Promise<ExtensionBrowser> {
  if (!fs.existsSync(path.join(CHROME_EXTENSION_DIR, 'manifest.json'))) {
    throw new Error(`No built extension in ${CHROME_EXTENSION_DIR}: run \`npm run build:chrome\` first (npm test does).`);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-devtools-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: [
      `--disable-extensions-except=${CHROME_EXTENSION_DIR}`,
      `--load-extension=${CHROME_EXTENSION_DIR}`,
      ...CHROMIUM_ARGS,
      ...(opts.extraArgs ?? []),
    ],
  });
  let [sw] = context.serviceWorkers();
  sw ??= await context.waitForEvent('serviceworker', { timeout: 15_000 });
  const extensionId = new URL(sw.url()).host;
  return {
    context,
    extensionId,
    open: async (pagePath) => {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/${pagePath}`);
      return page;
    },
    screenshot: async (page, name) => {
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
