import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWithExtension, CHROME_EXTENSION_ID, type ExtensionBrowser } from '../support/browser';
import { startTestCompanion, type TestCompanion } from '../support/companion';

describe('the built extension in real Chromium', () => {
  let browser: ExtensionBrowser;
  let companion: TestCompanion;

  beforeAll(async () => {
    companion = await startTestCompanion();
    browser = await launchWithExtension();
  });

  afterAll(async () => {
    await browser?.close();
    await companion?.dispose();
  });

  it('loads with the fixed extension id from the manifest key', () => {
    expect(browser.extensionId).toBe(CHROME_EXTENSION_ID);
  });

  it('renders the popup connected to a running companion', async () => {
    const page = await browser.open(`popup.html?port=${companion.port}`);
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('connected');
    expect(await page.locator('h1').textContent()).toBe('Codex DevTools');
    await browser.screenshot(page, 'popup-connected');
  });

  it('says the companion is offline when nothing listens on the port', async () => {
    await companion.close();
    const page = await browser.open(`popup.html?port=${companion.port}`);
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('offline');
    expect(await page.locator('.detail').textContent()).toContain('npx codex-devtools');
  });
});
