/**
 * The toolbar badge in real Chromium tells the truth about the companion: blank while the
 * background's feed is connected, "off" once the companion is gone, and blank again when it is
 * back on the same port (woken by the retry alarm or the feed's own retry).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWithExtension, type ExtensionBrowser } from '../support/browser';
import { startTestCompanion, tempHome, type TestCompanion } from '../support/companion';
import { pairExtension } from '../support/extension-pages';

type Chrome = { chrome: { action: { getBadgeText(d: object): Promise<string> }; alarms: { getAll(): Promise<{ name: string }[]> } } };

describe('the toolbar badge', () => {
  let browser: ExtensionBrowser;
  let companion: TestCompanion;
  const home = tempHome();

  beforeAll(async () => {
    companion = await startTestCompanion({ home });
    browser = await launchWithExtension();
    await (await pairExtension(browser, companion.port, companion.token())).close();
  });
  afterAll(async () => {
    await browser?.close();
    await companion?.dispose();
  });

  const worker = () => browser.context.serviceWorkers()[0];
  const badge = () => worker().evaluate(() => (globalThis as unknown as Chrome).chrome.action.getBadgeText({}));

  it('is blank while the companion answers, and the background keeps its retry alarm', async () => {
    await expect.poll(badge, { timeout: 10_000 }).toBe('');
    const alarms = await worker().evaluate(() => (globalThis as unknown as Chrome).chrome.alarms.getAll());
    expect(alarms.map((a) => a.name)).toContain('codex-devtools:retry');
  });

  it('says "off" when the companion stops, and clears when it is back', async () => {
    const port = companion.port;
    await companion.close();
    await expect.poll(badge, { timeout: 10_000 }).toBe('off');
    companion = await startTestCompanion({ home, port });
    await expect.poll(badge, { timeout: 45_000 }).toBe('');
  }, 60_000);
});
