/**
 * The panel in the pseudo-locale with exchanges made from real Codex traffic: a cache miss, an
 * unpriced model and a context calibrated far from its estimate, each opened on every detail tab.
 * What the companion says about them (the cache verdict's why, the miss reasons' evidence, the
 * pricing note, the calibration warning, entry labels) arrives as codes the panel translates, so
 * no untransformed text may show outside captured content, tool names and numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchWithExtension, type ExtensionBrowser } from '../support/browser';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { unmarkedText } from '../support/pseudo-text';
import { analyseAll, loadFixture, recordFrom, reportedUsage, withUsage, type Fixture } from '../support/records';

type Chrome = { chrome: { storage: { local: { set(v: object): Promise<void> } } } };

const UNPRICED = 'gpt-9-unpriced';
/** The detail tabs, in the panel's order (extension/stores/ui.ts). */
const DETAIL_TABS = ['context', 'response', 'diff', 'cache', 'usage', 'headers', 'raw'] as const;

/** The same fixture answered by a model no price table knows. */
function unpriced(fx: Fixture): Fixture {
  fx.request!.body.model = UNPRICED;
  for (const e of fx.response_sent_by_fake_upstream?.sse_events ?? []) {
    const r = e.response as { model?: string } | undefined;
    if (r?.model) r.model = UNPRICED;
  }
  return fx;
}

describe('the panel in the pseudo-locale, with real exchanges in every detail tab', () => {
  let companion: TestCompanion;
  let browser: ExtensionBrowser;
  let panel: Page;

  beforeAll(async () => {
    companion = await startTestCompanion();
    const t0 = Date.now() - 60_000;
    // A real tool-call turn whose second request read nothing from the cache: a miss.
    const first = loadFixture('fallback-tool-call-1.json');
    const second = loadFixture('fallback-tool-call-2.json');
    withUsage(second, { input: reportedUsage(second).input_tokens, cached: 0, output: 24 });
    const records = analyseAll([
      await recordFrom(first, { id: 'pseudo-1-first', startedAt: t0, durationMs: 2000 }),
      await recordFrom(second, { id: 'pseudo-2-miss', startedAt: t0 + 5000, durationMs: 2000 }),
      // A plain reply from a model with no known price.
      await recordFrom(unpriced(loadFixture('a-plain-text-1.json')), { id: 'pseudo-3-unpriced', startedAt: t0 + 10_000 }),
      // A compaction run's request whose reported input is far above what it shows: calibrated with a warning.
      await recordFrom(withUsage(loadFixture('e-compaction-local-1.json'), { input: 250_000, cached: 0, output: 40 }), {
        id: 'pseudo-4-calibrated',
        startedAt: t0 + 15_000,
      }),
    ]);
    for (const r of records) await companion.store.append(r);
    browser = await launchWithExtension();
    await browser.context.serviceWorkers()[0].evaluate((s) => (globalThis as unknown as Chrome).chrome.storage.local.set({ settings: s }), {
      port: companion.port,
      token: companion.token(),
      docLanguage: 'en-XA',
    });
    panel = await browser.open('devtools-panel.html');
    await panel.setViewportSize({ width: 1400, height: 900 });
    await panel.locator('[data-testid="exchange-row"][data-id="pseudo-4-calibrated"]').waitFor({ timeout: 15_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await companion?.dispose();
  });

  /** Opens `id` on each detail tab in turn: none shows unmarked text; a screenshot of each. */
  async function everyTab(id: string): Promise<void> {
    await panel.locator(`[data-testid="exchange-row"][data-id="${id}"]`).dispatchEvent('mousedown');
    for (const tab of DETAIL_TABS) {
      await panel.locator(`[data-tab="${tab}"]`).click();
      await panel.getByTestId(`${tab}-tab`).waitFor({ timeout: 10_000 });
      expect(await unmarkedText(panel), `${id}, ${tab} tab`).toEqual([]);
      await browser.screenshot(panel, `panel-pseudo-${id}-${tab}`);
    }
  }

  /** The text of a coded sentence, which must be the translation (marked) and not the companion's English. */
  async function translated(testid: string): Promise<string[]> {
    const els = panel.getByTestId(testid);
    expect(await els.count(), testid).toBeGreaterThan(0);
    expect(await panel.locator(`[data-testid="${testid}"][lang="en"]`).count(), `${testid} in English`).toBe(0);
    const texts = (await els.allTextContents()).map((t) => t.trim());
    for (const t of texts) expect(t, testid).toMatch(/^\[/);
    return texts;
  }

  it('lists the four exchanges in the pseudo-locale', async () => {
    expect(await panel.getByTestId('exchange-row').count()).toBe(4);
    expect(await unmarkedText(panel)).toEqual([]);
  });

  it('shows a cache miss, its why and every reason’s evidence translated, on every tab', async () => {
    await everyTab('pseudo-2-miss');
    await panel.locator('[data-tab="cache"]').click();
    expect(await panel.getByTestId('cache-verdict').getAttribute('data-verdict')).toBe('miss');
    const [why] = await translated('cache-why');
    expect(why).toMatch(/\d/);
    await translated('cache-evidence');
    await panel.locator('[data-tab="diff"]').click();
    // The output appended since the previous request is labelled by the companion: translated, with its captured text inside.
    expect(await panel.getByTestId('diff-item').allTextContents()).toContainEqual(expect.stringMatching(/^#\d+ \[.*call_1/));
    await panel.locator('[data-tab="context"]').click();
    const labels = await panel.getByTestId('entry-label').allTextContents();
    // Call and output entries are labelled by the companion, in the page's language; messages by their captured text.
    expect(labels.some((l) => /^\[.*exec_command/.test(l))).toBe(true);
  });

  it('shows an unpriced model’s pricing note translated, naming the model as it is, on every tab', async () => {
    await everyTab('pseudo-3-unpriced');
    await panel.locator('[data-tab="usage"]').click();
    const [note] = await translated('pricing-note');
    expect(note).toContain(UNPRICED);
    expect(await panel.getByTestId('price-row-example').textContent()).toContain(UNPRICED);
  });

  it('shows a calibrated context’s warning translated, with its unaccounted tokens, on every tab', async () => {
    await everyTab('pseudo-4-calibrated');
    await panel.locator('[data-tab="context"]').click();
    await panel.getByTestId('calibration-warning').waitFor();
    expect(await panel.locator('[data-testid="calibration-warning"] [lang="en"]').count()).toBe(0);
    expect(await panel.getByTestId('calibration-warning').textContent()).toMatch(/×\d/);
    expect(await panel.getByTestId('context-unaccounted').count()).toBe(1);
    await browser.screenshot(panel, 'panel-pseudo-calibrated-warning');
  });
});
