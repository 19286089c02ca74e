/**
 * Smoke test of the real thing: Chromium with DevTools open on a tab, the "Codex" panel shown in
 * it, rendering live data. It reaches into the DevTools front-end (its module path and
 * `InspectorView`), which may change with Chromium: the test skips, saying so, only when that
 * front-end API is absent; anything else that goes wrong fails it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWithExtension, SCREENSHOT_DIR, type ExtensionBrowser } from '../support/browser';
import { attach, listTargets, type CdpSession, type CdpTarget } from '../support/cdp';
import { freePort } from '../support/ports';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { pairExtension } from '../support/extension-pages';
import { recordOf } from '../support/records';

const FRONTEND_MODULE = 'devtools://devtools/bundled/ui/legacy/legacy.js';

// A DevTools front-end boots slowly on a loaded 2-core machine: wait generously for the condition.
async function poll<T>(read: () => Promise<T | null>, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < end) {
    try {
      const v = await read();
      if (v !== null) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what} within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ''}`);
}

describe('the Codex panel inside Chromium DevTools', () => {
  let companion: TestCompanion;
  let browser: ExtensionBrowser;
  let port: number;
  let frontend: CdpSession | null = null;
  let panel: CdpSession | null = null;

  beforeAll(async () => {
    companion = await startTestCompanion();
    await companion.store.append(await recordOf('a-plain-text-1.json', { id: '0devtools1', startedAt: Date.now() - 5000 }));
    port = await freePort();
    browser = await launchWithExtension({ extraArgs: ['--auto-open-devtools-for-tabs', `--remote-debugging-port=${port}`] });
    (await pairExtension(browser, companion.port, companion.token())).close();
  });

  afterAll(async () => {
    frontend?.close();
    panel?.close();
    await browser?.close();
    await companion?.dispose();
  });

  it('shows the Codex panel, connected and listing the stored exchanges', async (ctx) => {
    const page = await browser.context.newPage();
    await page.goto('about:blank');
    const panelId = `chrome-extension://${browser.extensionId}Codex`;
    // DevTools opens for every tab; a front-end still booting throws ("Unable to create settings"),
    // and one whose extension panels are not registered yet ignores the call: retry all of them
    // until the panel's page exists, or a front-end says it has no API to show panels with.
    const panelUrl = `chrome-extension://${browser.extensionId}/devtools-panel.html`;
    const outcome = await poll(async () => {
      const targets = await listTargets(port);
      for (const t of targets.filter((x) => x.url.startsWith('devtools://devtools/bundled/devtools_app.html'))) {
        const s = await attach(t);
        const r = await s
          .evaluate<string>(
            `import('${FRONTEND_MODULE}').then(async (UI) => {
              if (typeof UI?.InspectorView?.InspectorView?.instance !== 'function') return 'absent';
              await UI.InspectorView.InspectorView.instance().showPanel('${panelId}');
              return document.visibilityState === 'visible' ? 'shown' : 'hidden';
            }, () => 'absent')`,
          )
          .catch(() => null);
        if (r === 'absent') return { absent: true as const, session: s, frame: null };
        // The panel page inside this front-end (another front-end may hold a hidden copy).
        const frame = (await listTargets(port)).find((x) => x.url.startsWith(panelUrl) && (x.parentId ?? t.id) === t.id);
        if (r === 'shown' && frame) return { absent: false as const, session: s, frame };
        s.close();
      }
      return null;
    }, 'no DevTools front-end showed the Codex panel');
    if (outcome.absent) {
      outcome.session.close();
      return ctx.skip(`this Chromium's DevTools front-end has no ${FRONTEND_MODULE} InspectorView to show panels with`);
    }
    frontend = outcome.session;
    const frame: CdpTarget = outcome.frame;
    panel = await attach(frame);
    const text = await poll(async () => {
      const t = await panel!.evaluate<string>('document.body.innerText');
      // The stored exchange's answer, in the Preview column a docked panel always keeps (Model may not fit),
      // once the history's first page has come too (the feed's snapshot may show the row before it).
      return /\bconnected\b/.test(t) && t.includes('Hello from the fake upstream.') && !t.includes('Loading older exchanges') ? t : null;
    }, 'the panel did not connect and list the stored exchange');
    expect(text).toMatch(/\b1 of 1 stored\b/);
    const shot = await frontend!.send<{ data: string }>('Page.captureScreenshot', { format: 'png' });
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    fs.writeFileSync(path.join(SCREENSHOT_DIR, 'devtools-codex-panel.png'), Buffer.from(shot.data, 'base64'));
  }, 90_000);
});
