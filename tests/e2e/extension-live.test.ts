/**
 * The built extension in real Chromium against a live companion with real Codex traffic (the
 * real CLI through the companion to the fake upstream): pairing from the link, the panel filling
 * live, a detail with its tabs and a doc, the popup's counters equal to Codex's own figure.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWithExtension, type ExtensionBrowser } from '../support/browser';
import { runCodex, type CodexRun } from '../support/codex';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { pairExtension, rateLimitHeaders, withHeaders } from '../support/extension-pages';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { openFeed } from '../support/live-client';
import { scenarios } from '../support/scenarios';

const MODEL = 'gpt-6.1-sol';

describe('the extension with a live companion and real Codex traffic', () => {
  let upstream: FakeUpstream;
  let companion: TestCompanion;
  let browser: ExtensionBrowser;
  let panel: Page;
  let popup: Page;
  let run: CodexRun;

  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: withHeaders(scenarios.toolCall(), rateLimitHeaders(85, 40)) });
    companion = await startTestCompanion({ apiUpstream: upstream.baseUrl });
    browser = await launchWithExtension();
  });

  afterAll(async () => {
    run?.cleanup();
    await browser?.close();
    await companion?.dispose();
    await upstream?.close();
  });

  it('pairs from the link the companion prints, then forgets the token from the address bar', async () => {
    const options = await pairExtension(browser, companion.port, companion.token());
    expect(new URL(options.url()).hash).toBe('');
    expect(await options.getByTestId('pairing-state').textContent()).toContain(`port ${companion.port}`);
    await options.setViewportSize({ width: 900, height: 640 });
    await browser.screenshot(options, 'options-paired');
    await options.close();
  });

  it('lists exchanges in the panel live as Codex runs, with no port or token in its URL', async () => {
    panel = await browser.open('devtools-panel.html');
    await panel.setViewportSize({ width: 1400, height: 760 });
    await expect.poll(() => panel.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('connected');
    popup = await browser.open('popup.html');
    await popup.setViewportSize({ width: 400, height: 640 });
    await expect.poll(() => popup.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('connected');
    expect(await panel.getByTestId('exchange-row').count()).toBe(0);

    run = await runCodex({ prompt: 'run echo hi', baseUrl: `${companion.url}/v1`, model: MODEL });
    expect(run.exitCode).toBe(0);
    await companion.idle();
    await expect.poll(() => panel.getByTestId('exchange-row').count(), { timeout: 10_000 }).toBe(2);
    const statuses = await panel.locator('[data-testid="exchange-row"] [data-col="status"]').allTextContents();
    expect(statuses).toEqual(['completed', 'completed']);
    expect(await panel.locator('[data-testid="exchange-row"] [data-col="model"]').first().textContent()).toBe(MODEL);
    await browser.screenshot(panel, 'panel-live');
  });

  it('shows in the popup the companion’s totals, equal to the tokens Codex printed, and the limits near 80 %', async () => {
    const feed = await openFeed(companion.url, {
      token: companion.token(),
      scope: 'usage',
      origin: `chrome-extension://${browser.extensionId}`,
    });
    const live = (await feed.waitFor('feed/snapshot')).usage;
    feed.close();
    expect(run.tokensUsed).toBe(1956);
    await expect.poll(() => popup.getByTestId('today-codex-tokens').textContent(), { timeout: 10_000 }).toBe('1,956');
    expect(await popup.getByTestId('session-codex-tokens').textContent()).toBe(live.session!.usage.codexTokensUsed.toLocaleString('en-US'));
    expect(await popup.getByTestId('today-all-tokens').textContent()).toBe(live.today.allTrafficTokens.toLocaleString('en-US'));
    await expect.poll(() => popup.locator('[data-testid="gauge"].high').count(), { timeout: 10_000 }).toBe(1);
    expect(await popup.getByTestId('gauge-percent').allTextContents()).toEqual(['85% used', '40% used']);
    await browser.screenshot(popup, 'popup-live');
  });

  it('puts the rate-limit use on the toolbar badge from the background’s own usage feed', async () => {
    const [worker] = browser.context.serviceWorkers();
    type Action = { action: { getBadgeText(details: object): Promise<string> } };
    const badge = () => worker.evaluate(() => (globalThis as unknown as { chrome: Action }).chrome.action.getBadgeText({}));
    await expect.poll(badge, { timeout: 10_000 }).toBe('85%');
  });

  it('opens an exchange with its tabs in order, and a "?" doc with the tool as Codex sent it', async () => {
    await panel.getByTestId('exchange-row').last().dispatchEvent('mousedown');
    await panel.getByTestId('context-tab').waitFor();
    expect(await panel.getByTestId('detail-tab').allTextContents()).toEqual([
      'Context',
      'Response',
      'Diff',
      'Cache',
      'Usage & cost',
      'Headers',
      'Raw',
    ]);
    const groups = await panel.locator('[data-testid^="context-group-"] > h3').allTextContents();
    expect(groups.map((g) => g.trim().split(/\s/)[0])).toEqual(['Tools', 'Instructions', 'Input']);
    await browser.screenshot(panel, 'panel-detail-context');

    const exec = panel.getByTestId('tool-item').filter({ has: panel.locator('.tool-name', { hasText: /^exec$/ }) });
    await exec.locator('.help-mark').first().click();
    await expect.poll(() => panel.getByTestId('doc-title').textContent()).toBe('exec');
    expect(await panel.getByTestId('doc-live-description').textContent()).toContain('JavaScript');
    await browser.screenshot(panel, 'panel-doc-sheet');
    await panel.keyboard.press('Escape');

    await panel.locator('[data-tab="response"]').click();
    expect(await panel.getByTestId('output-item').first().getAttribute('data-kind')).toBe('custom_tool_call');
    await browser.screenshot(panel, 'panel-detail-response');
    await panel.locator('[data-tab="usage"]').click();
    await panel.getByTestId('usage-tab').waitFor();
    await browser.screenshot(panel, 'panel-detail-usage');
  });

  it('shows the session’s threads, totals and cache report, in light and dark themes', async () => {
    await panel.getByTestId('view-sessions').click();
    await panel.getByTestId('thread-row').first().waitFor({ timeout: 10_000 });
    expect(await panel.getByTestId('session-totals').getByTestId('codex-tokens').textContent()).toBe('1,956');
    await browser.screenshot(panel, 'panel-sessions');
    await panel.emulateMedia({ colorScheme: 'dark' });
    await browser.screenshot(panel, 'panel-sessions-dark');
    await panel.getByRole('tab', { name: 'Exchanges' }).click();
    await browser.screenshot(panel, 'panel-detail-dark');
    await popup.emulateMedia({ colorScheme: 'dark' });
    await browser.screenshot(popup, 'popup-dark');
  });
});
