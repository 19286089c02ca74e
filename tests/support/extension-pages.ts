/**
 * Helpers for driving the built extension's pages in a real browser: pairing through the options
 * page's link hash, and fake-upstream scenarios that also send Codex rate-limit headers. Test-only.
 */
import type { Page } from 'playwright-core';
import type { ExtensionBrowser } from './browser';
import type { Scenario } from './fake-upstream';

/** The pairing link the companion prints, on this browser's extension id. */
export function pairingUrl(extensionId: string, port: number, token: string, scheme = 'chrome-extension'): string {
  return `${scheme}://${extensionId}/options.html#port=${port}&token=${encodeURIComponent(token)}`;
}

/** Opens the pairing link and waits until the options page has stored it and the companion accepted the token. */
export async function pairExtension(browser: ExtensionBrowser, port: number, token: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(pairingUrl(browser.extensionId, port, token));
  await page.getByTestId('pairing-check').filter({ hasText: 'token accepted' }).waitFor({ timeout: 10_000 });
  return page;
}

/** Codex rate-limit headers (codex-protocol.md §3.4) for a 5-hour and a weekly window. */
export function rateLimitHeaders(primaryPercent: number, secondaryPercent: number): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  return {
    'x-codex-primary-used-percent': String(primaryPercent),
    'x-codex-primary-window-minutes': '300',
    'x-codex-primary-reset-at': String(now + 3600),
    'x-codex-secondary-used-percent': String(secondaryPercent),
    'x-codex-secondary-window-minutes': '10080',
    'x-codex-secondary-reset-at': String(now + 5 * 86400),
  };
}

/** The same scenario, with these headers on every answer. */
export function withHeaders(inner: Scenario, headers: Record<string, string>): Scenario {
  return async (req) => {
    const plan = await inner(req);
    return plan.kind === 'sse' || plan.kind === 'json' || plan.kind === 'raw'
      ? { ...plan, headers: { ...plan.headers, ...headers } }
      : plan;
  };
}
