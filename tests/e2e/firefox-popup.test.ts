/**
 * The Firefox build (`.output/firefox-mv3`) in real Firefox ESR: paired through its options page,
 * the popup connects to a live companion (ws://127.0.0.1 survives Firefox MV3's CSP) and its
 * counters follow real Codex traffic; the panel page lists that traffic as in Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIREFOX_EXTENSION_DIR } from '../support/browser';
import { runCodex } from '../support/codex';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { pairingUrl } from '../support/extension-pages';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { launchFirefoxWithExtension, type FirefoxSession } from '../support/firefox';
import { scenarios } from '../support/scenarios';

const text = (testid: string) => `document.querySelector('[data-testid="${testid}"]')?.textContent ?? null`;

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  return v;
}

describe('the extension in real Firefox', () => {
  let upstream: FakeUpstream;
  let companion: TestCompanion;
  let firefox: FirefoxSession;

  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: scenarios.text() });
    companion = await startTestCompanion({ apiUpstream: upstream.baseUrl });
    firefox = await launchFirefoxWithExtension(FIREFOX_EXTENSION_DIR);
  });
  afterAll(async () => {
    await firefox?.close();
    await companion?.dispose();
    await upstream?.close();
  });

  it('pairs on the options page and shows the popup connected, with counters that follow Codex live', async () => {
    await firefox.navigate(pairingUrl(firefox.uuid, companion.port, companion.token(), 'moz-extension'));
    const check = await until(
      () => firefox.evaluate<string | null>(text('pairing-check')),
      (v) => !!v?.includes('token accepted'),
    );
    expect(check).toContain('token accepted');

    await firefox.navigate(`moz-extension://${firefox.uuid}/popup.html`);
    const status = await until(
      () => firefox.evaluate<string | null>(text('status')),
      (v) => /^connected \(/.test(v ?? ''),
    );
    expect(status).toMatch(/^connected \(companion /);
    expect(await firefox.evaluate<string | null>(text('today-codex-tokens'))).toBe('0');

    const run = await runCodex({ prompt: 'say hello', baseUrl: `${companion.url}/v1` });
    run.cleanup();
    expect(run.tokensUsed).toBe(916);
    const counted = await until(
      () => firefox.evaluate<string | null>(text('today-codex-tokens')),
      (v) => v === '916',
    );
    expect(counted).toBe('916');
    await firefox.screenshot('firefox-popup-live');
  });

  it('shows the panel with Input, Cost and Cache on every row, and opens a row on its detail tabs, as in Chromium', async () => {
    await firefox.navigate(`moz-extension://${firefox.uuid}/devtools-panel.html`);
    const cells = `[...document.querySelectorAll('[data-testid="exchange-row"]')].map((r) => ['input', 'cost', 'cache'].map((c) => r.querySelector('[data-col="' + c + '"]')?.textContent?.trim() ?? null))`;
    const rows = await until(
      () => firefox.evaluate<(string | null)[][]>(cells),
      (v) => v.length > 0,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) for (const cell of row) expect(cell === null || cell === '').toBe(false);
    await firefox.evaluate(
      `document.querySelector('[data-testid="exchange-row"]').dispatchEvent(new MouseEvent('mousedown', { bubbles: true }))`,
    );
    const tabs = await until(
      () =>
        firefox.evaluate<number>(
          `document.querySelectorAll('[data-testid="detail-tab"]').length + (document.querySelector('[data-testid="more-tabs"]') ? 1 : 0)`,
        ),
      (n) => n > 0,
    );
    expect(tabs).toBeGreaterThan(1);
    await firefox.screenshot('firefox-panel');
  });
});
