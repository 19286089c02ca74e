/** Pages wake the background (a stopped MV3 service worker keeps no reconnect timer) with one runtime message. */
import { browser } from 'wxt/browser';

export const WAKE_MESSAGE = 'codex-devtools:wake';

export async function wakeBackground(): Promise<void> {
  try {
    await browser.runtime.sendMessage(WAKE_MESSAGE);
  } catch {
    // No background listening (tests, a page opened before the worker started): nothing to wake.
  }
}
