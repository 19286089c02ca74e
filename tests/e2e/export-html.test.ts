/**
 * The HTML export in a real Chromium: a real Codex session whose prompt is hostile markup is
 * exported and opened from disk. The page renders (its one script is allowed by hash), shows the
 * prompt as text, and makes no request, runs nothing from the content and logs no error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureRun, type CaptureRun } from '../support/capture-run';
import { chromiumPath, launchWithExtension } from '../support/browser';
import { pairExtension } from '../support/extension-pages';
import { recordOf } from '../support/records';
import { cli } from '../support/cli';
import { tempHome } from '../support/companion';

const HOSTILE = '</script><img src=x onerror=alert(1)>';

describe('the HTML export of a session', () => {
  let run: CaptureRun;
  let browser: Browser;
  const out = tempHome('codex-devtools-html-');
  const file = path.join(out, 'session.html');
  beforeAll(async () => {
    run = await captureRun('text', { prompt: HOSTILE });
    expect(run.run.exitCode).toBe(0);
    browser = await chromium.launch({ executablePath: chromiumPath(), headless: true });
  });
  afterAll(async () => {
    await browser?.close();
    await run?.dispose();
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('is one self-contained file with a CSP that allows only its own script and style by hash', async () => {
    const r = await cli(['export', '--format', 'html', '-o', file, '--home', run.companion.home, '--port', String(run.companion.port)]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Exporting session ${run.summaries[0].sessionId}`);
    const html = fs.readFileSync(file, 'utf8');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[\w+/=]+'; style-src 'sha256-[\w+/=]+';/);
    expect(html.match(/<script>/g)).toHaveLength(1);
    // Outside the data block nothing refers to anything beyond the file.
    const markup = html.replace(/<script type="application\/json" id="data">[^<]*<\/script>/, '');
    expect(markup).not.toMatch(/https?:|src=|href=|@import|url\(/i);
    // The prompt never appears as markup, only escaped inside the JSON block.
    expect(html).not.toContain(HOSTILE);
    expect(html).not.toContain('<img');
  });

  /** Opens an exported page from disk and checks it renders the session as text and nothing else. */
  async function expectSafeOffline(htmlFile: string): Promise<void> {
    const page = await browser.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (req) => requests.push(req.url()));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    const url = pathToFileURL(htmlFile).href;
    await page.goto(url);
    await page.locator('section.exchange').first().waitFor();
    expect(await page.locator('pre', { hasText: HOSTILE }).count()).toBeGreaterThan(0);
    expect(await page.locator('#list li').count()).toBe(run.summaries.filter((s) => s.kind === 'model').length);
    expect(await page.locator('.usage').first().textContent()).toContain('as Codex counts 916');
    expect(await page.locator('img').count()).toBe(0);
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
    await page.close();
  }

  it('opens offline in Chromium: the prompt shows as text, no request, no script from content, no console error', async () => {
    await expectSafeOffline(file);
  });

  it("the panel's Export menu saves the chosen session as the same safe page", async () => {
    // A newer session beside it, so an export that ignored the choice would get the wrong one.
    await run.companion.store.append(await recordOf('a-plain-text-1.json', { id: '0panelexport1', startedAt: Date.now() }));
    const ext = await launchWithExtension();
    try {
      (await pairExtension(ext, run.companion.port, run.companion.token())).close();
      const panel = await ext.open('devtools-panel.html');
      await expect.poll(() => panel.getByTestId('status').textContent(), { timeout: 20_000 }).toContain('connected');
      // HTML is one session's page: it stays disabled until a session is chosen.
      await panel.getByTestId('export').click();
      expect(await panel.locator('[data-testid="export-menu"] [data-format="html"]').isDisabled()).toBe(true);
      await panel.getByTestId('export').click();
      await panel.getByTestId('filter-session').click();
      await panel.getByTestId('session-option').filter({ hasText: HOSTILE }).click();
      await panel.getByTestId('export').click();
      const [download] = await Promise.all([
        panel.waitForEvent('download'),
        panel.locator('[data-testid="export-menu"] [data-format="html"]').click(),
      ]);
      const saved = path.join(out, 'from-panel.html');
      await download.saveAs(saved);
      expect(download.suggestedFilename()).toMatch(/\.html$/);
      const html = fs.readFileSync(saved, 'utf8');
      expect(html).not.toContain(HOSTILE);
      expect(html).toContain(run.summaries[0].sessionId!);
      await expectSafeOffline(saved);
    } finally {
      await ext.close();
    }
  }, 90_000);
});
