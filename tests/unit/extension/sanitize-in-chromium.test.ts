/**
 * The sanitiser runs in real Chromium here: happy-dom's DOM differs from browsers exactly where
 * DOMPurify looks (node accessors, iteration while nodes are removed), so only a browser proves
 * that captured or doc HTML cannot run.
 */
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../../support/browser';

const PAYLOADS = [
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '<svg><animate onbegin="window.__pwned = \'svg\'" attributeName="x" dur="1s"></animate></svg>',
  '<a id="link" href="javascript:void(window.__pwned=\'link\')">link</a>',
  '<iframe srcdoc="<script>parent.__pwned = \'iframe\'</script>"></iframe>',
  '<form action="javascript:window.__pwned=1"><button>go</button></form>',
  '<p>kept</p>',
].join('\n');

interface Outcome {
  pwned: unknown;
  dangerous: number;
  kept: string | null;
  linkHref: string | null;
}

async function bundleMarkdownModule(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: path.resolve('extension/lib/markdown.ts'), formats: ['iife'], name: 'DocMarkdown', fileName: () => 'markdown.js' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
  const chunk = outputs.find((o) => o.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('vite produced no bundle for extension/lib/markdown.ts');
  return chunk.code;
}

/** Inserts the HTML into the live page, lets events fire, and reports what survived. */
async function insert(page: Page, how: 'sanitizeHtml' | 'renderMarkdown' | 'raw', payload: string): Promise<Outcome> {
  return page.evaluate(
    async ({ how, payload }) => {
      const w = window as unknown as { __pwned?: unknown; DocMarkdown: Record<string, (s: string) => string> };
      delete w.__pwned;
      const host = document.createElement('div');
      host.innerHTML = how === 'raw' ? payload : w.DocMarkdown[how](payload);
      document.body.replaceChildren(host);
      (host.querySelector('#link') as HTMLAnchorElement | null)?.click();
      await new Promise((r) => setTimeout(r, 300));
      return {
        pwned: w.__pwned,
        dangerous: host.querySelectorAll('script, iframe, form, [onerror], [onbegin]').length,
        kept: host.querySelector('p')?.textContent ?? null,
        linkHref: host.querySelector('a')?.getAttribute('href') ?? null,
      };
    },
    { how, payload },
  );
}

describe('sanitising in a real browser', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const code = await bundleMarkdownModule();
    browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: code });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('runs the payloads when nothing sanitises them, so the checks below can see an attack', async () => {
    const outcome = await insert(page, 'raw', PAYLOADS);
    expect(outcome.pwned).toBeDefined();
    expect(outcome.dangerous).toBeGreaterThan(0);
  });

  it('keeps ordinary markup but no script, handler, frame, form or script URL from HTML given to the sanitiser', async () => {
    const outcome = await insert(page, 'sanitizeHtml', PAYLOADS);
    expect(outcome).toEqual({ pwned: undefined, dangerous: 0, kept: 'kept', linkHref: null });
  });

  it('shows raw HTML in markdown as text, and it never runs', async () => {
    const outcome = await insert(page, 'renderMarkdown', `${PAYLOADS}\n\n[click](javascript:void(window.__pwned=1))`);
    expect(outcome.pwned).toBeUndefined();
    expect(outcome.dangerous).toBe(0);
    expect(await page.locator('body').textContent()).toContain('<script>window.__pwned = "script"</script>');
  });
});
