import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Opens a detail tab in the panel, from the strip or, on a narrow panel, from its "…" menu. */
export async function openDetailTab(panel: Page, tab: string): Promise<void> {
  const inStrip = panel.locator(`[data-testid="detail-tab"][data-tab="${tab}"]`);
  if ((await inStrip.count()) > 0) await inStrip.click();
  else {
    await panel.getByTestId('more-tabs').click();
    await panel.locator(`[data-menu-tab="${tab}"]`).click();
  }
  await expect.poll(() => panel.locator('[data-testid="detail-tab"][aria-selected="true"]').getAttribute('data-tab')).toBe(tab);
}
