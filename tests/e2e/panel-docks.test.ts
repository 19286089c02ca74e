/**
 * The built panel in real Chromium against a companion holding more history than the panel
 * loads: at every dock width (400, 550, 800, 1600 px) and 300 px tall, each row shows Input, Cost
 * and Cache inside the panel, and every detail tab can be reached; a search finds an exchange
 * the panel never loaded, and sorting by cost puts the costliest first. Screenshots of each.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../companion/protocol';
import { DETAIL_TABS } from '../../extension/stores/ui';
import { launchWithExtension, type ExtensionBrowser } from '../support/browser';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { pairExtension } from '../support/extension-pages';
import { openDetailTab } from '../support/detail-tabs';
import { analyseAll, loadFixture, recordFrom, withUsage } from '../support/records';
import { runCodex } from '../support/codex';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { scenarios } from '../support/scenarios';

/** More than the snapshot (200) and a page (200): the oldest are never loaded unless asked for. */
const EXCHANGES = 240;
const T0 = Date.UTC(2026, 10, 30, 9, 0, 0);
const WIDTHS = [400, 550, 800, 1600];
const HEIGHT = 300;

describe('the panel at every dock size, over a history larger than it loads', () => {
  let companion: TestCompanion;
  let browser: ExtensionBrowser;
  let panel: Page;
  /** The oldest exchange: its input holds an exec_command call. */
  const toolCallId = '0a-old-tool-call';
  /** The second oldest, and by far the costliest. */
  const costliestId = '0b-old-costly';

  let upstream: FakeUpstream;
  /** The exchange the real Codex CLI made through the companion: the newest row. */
  let codexId: string;
  /** The seeded history plus what the Codex run stored. */
  let stored: number;

  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: scenarios.text() });
    companion = await startTestCompanion({ apiUpstream: upstream.baseUrl });
    const records: ExchangeRecord[] = [await recordFrom(loadFixture('b-tool-call-2.json'), { id: toolCallId, startedAt: T0 })];
    records.push(
      await recordFrom(withUsage(loadFixture('a-plain-text-1.json'), { input: 900_000, cached: 0, output: 4_000 }), {
        id: costliestId,
        startedAt: T0 + 1000,
      }),
    );
    for (let i = 0; i < EXCHANGES - 2; i++) {
      const usage = { input: 2_000 + i * 10, cached: i % 3 === 0 ? 0 : 1_024, output: 20 + i };
      records.push(
        await recordFrom(withUsage(loadFixture('a-plain-text-1.json'), usage), {
          id: `0c${String(i).padStart(4, '0')}`,
          startedAt: T0 + 60_000 + i * 1000,
        }),
      );
    }
    for (const r of analyseAll(records)) await companion.store.append(r);
    // And one turn of the real Codex CLI through the companion, listed first.
    const run = await runCodex({ prompt: 'say hello', baseUrl: `${companion.url}/v1` });
    run.cleanup();
    expect(run.tokensUsed).toBeGreaterThan(0);
    await companion.idle();
    codexId = (await companion.store.list({ kind: 'model', limit: 1 })).items[0].id; // ids sort by time: the seeded ones are older
    expect(records.map((r) => r.id)).not.toContain(codexId);
    stored = (await companion.store.list({ limit: 1 })).stored!;
    expect(stored).toBeGreaterThan(EXCHANGES);
    browser = await launchWithExtension();
    (await pairExtension(browser, companion.port, companion.token())).close();
    panel = await browser.open('devtools-panel.html');
  });

  afterAll(async () => {
    await browser?.close();
    await companion?.dispose();
    await upstream?.close();
  });

  /** Per row, in one read (the virtual list re-renders as the size settles): each figure's text and right edge, or null when the row lacks it. */
  async function figures(): Promise<Record<string, { right: number; text: string } | null>[]> {
    return panel.locator('[data-testid="exchange-row"]').evaluateAll((rows) =>
      rows.map((row) =>
        Object.fromEntries(
          ['input', 'cost', 'cache'].map((col) => {
            const e = row.querySelector(`[data-col="${col}"]`);
            return [col, e ? { right: e.getBoundingClientRect().right, text: (e.textContent ?? '').trim() } : null];
          }),
        ),
      ),
    );
  }

  async function expectFiguresInside(width: number): Promise<void> {
    const rows = await figures();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      for (const [col, c] of Object.entries(row)) {
        expect(c, col).not.toBeNull();
        expect(c!.text, col).not.toBe('');
        expect(c!.right, `${col} inside the panel`).toBeLessThanOrEqual(width);
      }
  }

  const openTab = (tab: string) => openDetailTab(panel, tab);

  it('counts the whole stored history in the status line, not the rows it loaded', async () => {
    await expect.poll(() => panel.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('connected');
    await expect.poll(() => panel.getByTestId('row-count').textContent(), { timeout: 10_000 }).toBe(`${stored} of ${stored} stored`);
  });

  for (const width of WIDTHS) {
    it(`at ${width} × ${HEIGHT} px shows Input, Cost and Cache for every row and reaches every detail tab`, async () => {
      await panel.setViewportSize({ width, height: HEIGHT });
      await expect.poll(() => panel.getByTestId('exchange-row').count()).toBeGreaterThan(0);
      await expectFiguresInside(width);
      // The real Codex turn is the newest row, with the rest of the history below it.
      expect(await panel.getByTestId('exchange-row').first().getAttribute('data-id')).toBe(codexId);
      await browser.screenshot(panel, `panel-${width}x${HEIGHT}-list`);

      await panel.getByTestId('exchange-row').first().click();
      await expect.poll(() => panel.getByTestId('detail-pane').isVisible()).toBe(true);
      for (const tab of DETAIL_TABS) {
        await openTab(tab);
        const box = await panel.locator(`[data-testid="detail-tab"][data-tab="${tab}"]`).boundingBox();
        expect(box!.x + box!.width, `${tab} tab inside the panel`).toBeLessThanOrEqual(width);
      }
      // With the detail open the list still shows the figures, beside it or above it.
      await expectFiguresInside(width);
      await browser.screenshot(panel, `panel-${width}x${HEIGHT}-detail`);
      await panel.locator('[data-testid="detail-pane"] .d-close').click();
    });
  }

  it('finds with a typed search an exchange that is not among the loaded rows', async () => {
    await panel.setViewportSize({ width: 800, height: HEIGHT });
    expect(await panel.locator(`[data-id="${toolCallId}"]`).count()).toBe(0);
    await panel.getByTestId('search').fill('exec_command');
    await expect.poll(() => panel.getByTestId('row-count').textContent(), { timeout: 10_000 }).toBe(`1 of ${stored} stored`);
    expect(await panel.getByTestId('exchange-row').getAttribute('data-id')).toBe(toolCallId);
    await browser.screenshot(panel, 'panel-search-history');
    await panel.getByTestId('search').fill('');
    await expect.poll(() => panel.getByTestId('row-count').textContent(), { timeout: 10_000 }).toBe(`${stored} of ${stored} stored`);
  });

  it('sorts by cost on the companion: the costliest first, though it was never loaded', async () => {
    expect(await panel.locator(`[data-id="${costliestId}"]`).count()).toBe(0);
    await panel.locator('[data-sort="cost"]').click();
    await expect.poll(() => panel.getByTestId('exchange-row').first().getAttribute('data-id'), { timeout: 10_000 }).toBe(costliestId);
    expect(await panel.locator('[data-col="cost"][aria-sort]').getAttribute('aria-sort')).toBe('descending');
    const costs = (await figures()).map((r) => Number(r.cost!.text.replace(/[^\d.]/g, '')));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    await browser.screenshot(panel, 'panel-sorted-by-cost');
  });

  it('pages the sorted answer in from the companion as the list scrolls', async () => {
    // The first page is 200 of the stored: the list ends with a way to more, until it has them all.
    const list = panel.getByTestId('exchange-list');
    await expect.poll(() => list.locator('.foot').textContent()).toContain('Load older');
    // Each scroll to the bottom asks for the next page once the last one has arrived.
    await expect
      .poll(
        async () => {
          await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
          return list.locator('.foot').textContent();
        },
        { timeout: 10_000 },
      )
      .toContain('Start of the stored history.');
    const spacer = await list.locator('.spacer').evaluate((el) => el.getBoundingClientRect().height);
    expect(spacer).toBe(stored * 21);
  });

  it('stacks the Sessions view on a narrow dock and keeps it side by side on a wide one', async () => {
    await panel.getByTestId('filters-reset').click();
    await panel.getByTestId('view-sessions').click();
    const boxes = async () => ({
      list: (await panel.locator('.s-list').boundingBox())!,
      main: (await panel.locator('.s-main').boundingBox())!,
    });
    await panel.setViewportSize({ width: 400, height: HEIGHT });
    await expect.poll(() => panel.getByTestId('cost-triage').count(), { timeout: 10_000 }).toBe(1);
    let b = await boxes();
    expect(b.main.y).toBeGreaterThanOrEqual(b.list.y + b.list.height - 1);
    expect(b.main.x + b.main.width).toBeLessThanOrEqual(400);
    await browser.screenshot(panel, `panel-sessions-400x${HEIGHT}`);
    await panel.setViewportSize({ width: 1600, height: HEIGHT });
    await expect.poll(async () => (await boxes()).main.x).toBeGreaterThan(200);
    b = await boxes();
    expect(b.main.y).toBeLessThan(b.list.y + b.list.height);
    await browser.screenshot(panel, `panel-sessions-1600x${HEIGHT}`);
  });
});
