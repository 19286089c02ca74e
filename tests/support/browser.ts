/**
 * Real Chromium (Debian's package, driven by playwright-core; never a downloaded browser) with
 * the built extension loaded, headless. Screenshots go to test-results/screenshots (git-ignored).
 * Test-only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { findBrowser } from '../../scripts/lib/browsers.mjs';

export const CHROME_EXTENSION_DIR = path.resolve('.output/chrome-mv3');
export const FIREFOX_EXTENSION_DIR = path.resolve('.output/firefox-mv3');
/** The Chrome Web Store build: no manifest `key`, so Chromium derives another id from its folder. */
export const CHROME_STORE_EXTENSION_DIR = path.resolve('.output/chrome-mv3-store');
export const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

/** The development build's id, fixed by the manifest `key` in wxt.config.ts. */
export const CHROME_EXTENSION_ID = 'dceflbcgefibjiafpacongiijjkjedae';

/** Found the same way as `npm test` and `npm run setup:browsers` find it (scripts/lib/browsers.mjs). */
export function chromiumPath(): string {
  const p = findBrowser('chromium');
  if (p) return p;
  throw new Error('Chromium not found: run `npm run setup:browsers` or set CHROMIUM_PATH.');
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

export async function launchWithExtension(opts: { extraArgs?: string[]; extensionDir?: string } = {}): Promise<ExtensionBrowser> {
  const dir = opts.extensionDir ?? CHROME_EXTENSION_DIR;
  if (!fs.existsSync(path.join(dir, 'manifest.json'))) {
    throw new Error(`No built extension in ${dir}: run \`npm run build\` first (npm test does).`);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-devtools-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: [
      `--disable-extensions-except=${dir}`,
      `--load-extension=${dir}`,
      ...CHROMIUM_ARGS,
      // Branded Google Chrome (the macOS fallback) ignores --load-extension without this; Chromium is unaffected.
      '--disable-features=DisableLoadExtensionCommandLineSwitch',
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
