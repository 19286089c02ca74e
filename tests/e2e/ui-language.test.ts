/**
 * The UI string layer in real Chromium: messages render on MV3 pages (whose CSP forbids
 * `unsafe-eval`, so vue-i18n must compile without it), in the language the setting names, and
 * Arabic lays the page out right to left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWithExtension, type ExtensionBrowser } from '../support/browser';

type Chrome = { chrome: { storage: { local: { set(v: object): Promise<void> } } } };

describe('the UI language', () => {
  let browser: ExtensionBrowser;
  beforeAll(async () => {
    browser = await launchWithExtension();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const setLanguage = (docLanguage: string) =>
    browser.context
      .serviceWorkers()[0]
      .evaluate(
        (lang) => (globalThis as unknown as Chrome).chrome.storage.local.set({ settings: { port: 9, token: null, docLanguage: lang } }),
        docLanguage,
      );

  it('renders the popup in Japanese, with no CSP violation, when the setting says ja', async () => {
    await setLanguage('ja');
    const popup = await browser.open('popup.html');
    const violations: string[] = [];
    popup.on('console', (m) => {
      if (/Content Security Policy|unsafe-eval/i.test(m.text())) violations.push(m.text());
    });
    await expect.poll(() => popup.getByTestId('status').textContent(), { timeout: 10_000 }).toMatch(/未ペアリング|オフライン/);
    expect(await popup.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ja', 'ltr']);
    expect(violations).toEqual([]);
    await browser.screenshot(popup, 'popup-ja');
    await popup.close();
  });

  it('lays the popup out right to left in Arabic', async () => {
    await setLanguage('ar');
    const popup = await browser.open('popup.html');
    await expect.poll(() => popup.getByTestId('status').textContent(), { timeout: 10_000 }).toMatch(/غير مقترن|غير متصل/);
    expect(await popup.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await browser.screenshot(popup, 'popup-ar');
    await popup.close();
  });
});
