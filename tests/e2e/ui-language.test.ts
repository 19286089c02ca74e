/**
 * The UI string layer in real Chromium: messages render on MV3 pages (whose CSP forbids
 * `unsafe-eval`, so vue-i18n must compile without it), in the language the setting names, and
 * Arabic lays the page out right to left. In the pseudo-locale every message is bracketed and
 * accented, so a visible English word without the marks is a string that bypassed the layer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWithExtension, type ExtensionBrowser } from '../support/browser';
import { unmarkedText } from '../support/pseudo-text';

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

  it('shows no text outside the string layer on the popup, panel and options page (pseudo-locale)', async () => {
    await setLanguage('en-XA');
    const popup = await browser.open('popup.html');
    await expect.poll(() => popup.getByTestId('status').textContent(), { timeout: 10_000 }).toMatch(/^\[/);
    expect(await unmarkedText(popup)).toEqual([]);
    await popup.close();

    const panel = await browser.open('devtools-panel.html');
    await expect.poll(() => panel.getByTestId('empty').textContent(), { timeout: 10_000 }).toMatch(/^\[/);
    expect(await unmarkedText(panel)).toEqual([]);
    // The Sessions view, with the companion's refusal (unpaired) as its error.
    await panel.getByTestId('view-sessions').click();
    await expect.poll(() => panel.getByTestId('sessions-view').textContent(), { timeout: 10_000 }).toMatch(/\[/);
    expect(await unmarkedText(panel)).toEqual([]);
    await panel.close();

    const options = await browser.open('options.html');
    await expect.poll(() => options.getByTestId('pairing-state').textContent(), { timeout: 10_000 }).toMatch(/^\[/);
    expect(await unmarkedText(options)).toEqual([]);
    await options.close();
  });

  it.each([
    ['zh-CN', /未配对|离线/],
    ['ja', /未ペアリング|オフライン/],
    ['ar', /غير مقترن|غير متصل/],
  ])('shows the popup, panel and options page in %s (screenshots)', async (lang, status) => {
    await setLanguage(lang);
    for (const page of ['popup.html', 'devtools-panel.html', 'options.html']) {
      const p = await browser.open(page);
      await expect.poll(() => p.locator('body').textContent(), { timeout: 10_000 }).toMatch(page === 'options.html' ? /./ : status);
      expect(await p.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
        lang,
        lang === 'ar' ? 'rtl' : 'ltr',
      ]);
      await browser.screenshot(p, `${page.replace('.html', '')}-${lang}`);
      await p.close();
    }
  });

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
