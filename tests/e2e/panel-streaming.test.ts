/**
 * A response streaming through the companion from a throttled upstream, watched in real
 * Chromium: the panel shows the reasoning text and the tool call with its arguments before the
 * response ends, the row previews it, and the toolbar badge shows activity until it ends.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWithExtension, type ExtensionBrowser } from '../support/browser';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { pairExtension } from '../support/extension-pages';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { rawRequest } from '../support/http';
import { fakeKey } from '../support/keys';
import { functionCall, reasoning, response } from '../support/sse';

const THOUGHT = 'The test fails on an off-by-one in the loop; run it alone first.';
const ARGS = JSON.stringify({ cmd: 'npx vitest run tests/unit/math.test.ts', workdir: '/tmp/project' });
const META = JSON.stringify({
  session_id: 's-stream',
  thread_id: 't-stream',
  turn_id: 'turn-1',
  request_kind: 'turn',
  thread_source: 'user',
});

type Chrome = { chrome: { action: { getBadgeText(d: object): Promise<string> } } };

describe('the panel while a response streams', () => {
  let upstream: FakeUpstream;
  let companion: TestCompanion;
  let browser: ExtensionBrowser;
  let panel: Page;
  let release: () => void = () => {};
  let answered: Promise<unknown> = Promise.resolve();

  beforeAll(async () => {
    upstream = await startFakeUpstream({
      scenario: () => {
        const held = new Promise<void>((r) => (release = r));
        const events = response([reasoning(THOUGHT), functionCall('exec_command', ARGS)]);
        // Throttled, then held once the arguments have streamed: the response has not ended.
        const before = events.findIndex((e) => e.type === 'response.function_call_arguments.done');
        return { kind: 'sse', events, chunking: 'per-event', chunkDelayMs: 40, hold: { beforeChunk: before, until: held } };
      },
    });
    companion = await startTestCompanion({ apiUpstream: upstream.baseUrl });
    browser = await launchWithExtension();
    await (await pairExtension(browser, companion.port, companion.token())).close();
    panel = await browser.open('devtools-panel.html');
    await panel.setViewportSize({ width: 1400, height: 760 });
    await panel.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 10_000 });
  });
  afterAll(async () => {
    release();
    await answered;
    await browser?.close();
    await companion?.dispose();
    await upstream?.close();
  });

  const post = () =>
    rawRequest(`${companion.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fakeKey('test-stream-0123456789')}`, 'x-codex-turn-metadata': META },
      body: JSON.stringify({ model: 'gpt-5-codex', input: [], stream: true }),
    });
  const badge = () => browser.context.serviceWorkers()[0].evaluate(() => (globalThis as unknown as Chrome).chrome.action.getBadgeText({}));
  const row = () => panel.getByTestId('exchange-row').first();

  it('shows the reasoning text and the tool call’s arguments before the response ends', async () => {
    answered = post();
    await row().waitFor({ timeout: 10_000 });
    await row().dispatchEvent('mousedown');
    await panel.locator('[data-tab="response"]').click();
    const reasoningText = panel.locator('[data-testid="live-item"][data-kind="reasoning"] [data-testid="live-item-text"]');
    const call = panel.locator('[data-testid="live-item"][data-kind="function_call"]');
    await expect.poll(() => reasoningText.textContent(), { timeout: 10_000 }).toBe(THOUGHT);
    await expect.poll(() => call.getByTestId('live-item-text').textContent(), { timeout: 10_000 }).toBe(ARGS);
    expect(await call.getByTestId('live-item-name').textContent()).toBe('exec_command');
    // Still streaming: the upstream holds the rest of the response.
    expect(await row().locator('[data-col="status"]').textContent()).toBe('streaming');
    expect(await row().locator('[data-col="preview"]').textContent()).toBe(`→ exec_command ${ARGS}`);
    expect(await row().locator('[data-col="output"]').textContent()).toMatch(/^~[1-9]\d*$/);
    await browser.screenshot(panel, 'panel-streaming');
  });

  it('shows activity on the toolbar badge while it streams, and clears it when the response ends', async () => {
    await expect.poll(badge, { timeout: 10_000 }).toBe('●');
    release();
    await answered;
    await expect.poll(() => row().locator('[data-col="status"]').textContent(), { timeout: 10_000 }).toBe('completed');
    await expect.poll(badge, { timeout: 10_000 }).toBe('');
    expect(await panel.getByTestId('output-item').nth(1).getAttribute('data-kind')).toBe('function_call');
  });

  it('does not keep the activity mark when the browser stops the background mid-stream and the stream ends meanwhile', async () => {
    answered = post();
    await expect.poll(badge, { timeout: 10_000 }).toBe('●');
    // The browser keeps the badge of a stopped worker: only the worker, started again, can correct it.
    const cdp = await browser.context.newCDPSession(panel);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    release();
    await answered;
    // Read from the panel page (an extension page too): the worker may not be running to answer.
    const shown = () => panel.evaluate(() => (globalThis as unknown as Chrome).chrome.action.getBadgeText({}));
    expect(await shown()).toBe('●');
    // The retry alarm (every 30 s) starts the worker again; its feed's snapshot says nothing streams.
    await expect.poll(shown, { timeout: 45_000, interval: 1000 }).toBe('');
    await cdp.detach();
  }, 60_000);

  it('draws the list’s footer below the oldest row, not over it', async () => {
    const rowBox = await panel.getByTestId('exchange-row').last().boundingBox();
    const foot = await panel.locator('.foot').boundingBox();
    expect(await panel.locator('.foot').textContent()).toContain('Start of the stored history.');
    expect(foot!.y).toBeGreaterThanOrEqual(rowBox!.y + rowBox!.height);
  });
});
