/**
 * Pairing real Chromium from what `codex-devtools token --home X` prints while a companion on a
 * non-default port uses X: the link carries that port and the panel connects to it; a second
 * link, for another companion, opened in the same options tab pairs again.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchWithExtension, type ExtensionBrowser } from '../support/browser';
import { cli, startCli, type RunningCli } from '../support/cli';
import { startTestCompanion, tempHome, type TestCompanion } from '../support/companion';
import { freePort } from '../support/ports';

const linkIn = (stdout: string) => /chrome-extension:\/\/\S+options\.html#port=\d+&token=\S+/.exec(stdout)?.[0];

describe('pairing from `token --home` on a non-default port', () => {
  const home = tempHome();
  let port: number;
  let server: RunningCli;
  let other: TestCompanion;
  let browser: ExtensionBrowser;
  let options: Page;

  beforeAll(async () => {
    port = await freePort();
    server = startCli(['--port', String(port), '--home', home]);
    await server.waitFor('listening on');
    other = await startTestCompanion();
    browser = await launchWithExtension();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await other?.dispose();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('pairs with the companion using that state directory, on its port', async () => {
    const printed = await cli(['token', '--home', home]);
    const link = linkIn(printed.stdout);
    expect(link).toContain(`#port=${port}&token=`);
    expect(new URL(link!).host).toBe(browser.extensionId);
    options = await browser.context.newPage();
    await options.goto(link!);
    await options.getByTestId('pairing-check').filter({ hasText: 'token accepted' }).waitFor({ timeout: 10_000 });
    expect(await options.getByTestId('pairing-state').textContent()).toContain(`port ${port}`);
    expect(new URL(options.url()).hash).toBe('');
    const panel = await browser.open('devtools-panel.html');
    await expect.poll(() => panel.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('connected');
    await browser.screenshot(options, 'pairing-token-home');
    await panel.close();
  });

  it('honours a second pairing link opened in the same tab', async () => {
    const second = `chrome-extension://${browser.extensionId}/options.html#port=${other.port}&token=${encodeURIComponent(other.token())}`;
    await options.goto(second);
    await expect.poll(() => options.getByTestId('pairing-state').textContent(), { timeout: 10_000 }).toContain(`port ${other.port}`);
    await options.getByTestId('pairing-check').filter({ hasText: 'token accepted' }).waitFor({ timeout: 10_000 });
    expect(new URL(options.url()).hash).toBe('');
  });
});
