/** Opens the options page (pairing) from any extension page, in a tab when the browser will not open it in place. */
import { browser } from 'wxt/browser';

export async function openOptionsPage(): Promise<void> {
  try {
    await browser.runtime.openOptionsPage();
  } catch {
    // Some contexts (a DevTools panel in older Firefox) cannot open it directly: a plain tab works everywhere.
    window.open(browser.runtime.getURL('/options.html'), '_blank', 'noopener');
  }
}
