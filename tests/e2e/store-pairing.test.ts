/**
 * The Chrome Web Store build (`.output/chrome-mv3-store`, no manifest `key`) gets an id other than
 * the development build's, so the development pairing link cannot reach it. Pasting the pairing code
 * the real CLI prints into its options page pairs it, and the companion accepts its requests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROME_EXTENSION_ID, CHROME_STORE_EXTENSION_DIR, launchWithExtension, type ExtensionBrowser } from '../support/browser';
import { startCli, type RunningCli } from '../support/cli';
import { tempHome } from '../support/companion';
import { freePort } from '../support/ports';

describe('the store build pairs by code', () => {
  let browser: ExtensionBrowser;
  let server: RunningCli;
  let home: string;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    home = tempHome();
    server = startCli(['--port', String(port), '--home', home]);
    await server.waitFor('listening on');
    browser = await launchWithExtension({ extensionDir: CHROME_STORE_EXTENSION_DIR });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('has no manifest key and so another id than the development build', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(CHROME_STORE_EXTENSION_DIR, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.key).toBeUndefined();
    expect(browser.extensionId).toMatch(/^[a-p]{32}$/);
    expect(browser.extensionId).not.toBe(CHROME_EXTENSION_ID);
  });

  it('pairs from the code the companion printed when it started', async () => {
    const code = /Pairing code: (\S+)/.exec(server.output())?.[1];
    const token = fs.readFileSync(path.join(home, 'token'), 'utf8').trim();
    expect(code).toBe(`${port}:${token}`);
    const page = await browser.open('options.html');
    await page.getByTestId('pairing-code-input').fill(code!);
    await page.getByTestId('pair-with-code').click();
    const result = page.getByTestId('pairing-code-result');
    await result.filter({ hasText: 'token accepted' }).waitFor({ timeout: 10_000 });
    expect(await result.textContent()).toContain(`port ${port}`);
    await browser.screenshot(page, 'store-build-paired-by-code');
    expect(await page.getByTestId('pairing-state').textContent()).toContain(`Paired with the companion on port ${port}`);
    // The popup of the store build then holds the live feed open with the stored pairing.
    const popup = await browser.open('popup.html');
    await expect.poll(() => popup.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('connected');
  });
});
