/**
 * A hostile web page in real Chromium and real Firefox ESR, served from another loopback port,
 * tries every way a page can reach the proxy without JavaScript being allowed to read the answer:
 * img, script, link, iframe, a no-cors fetch, a text/plain form POST, sendBeacon and a WebSocket.
 * The active profile has an API key; the upstream must receive nothing at all.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath } from '../support/browser';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { launchFirefoxWithExtension } from '../support/firefox';
import { fakeKey } from '../support/keys';
import { message, response } from '../support/sse';

/** The page's attacks; it sets `window.attacksDone` once each has loaded, failed or timed out. */
function attackPage(proxy: string): string {
  const ws = proxy.replace(/^http/, 'ws');
  return `<!doctype html><meta charset="utf-8"><title>hostile</title><body><script>
const proxy = ${JSON.stringify(proxy)};
const settle = (el) => new Promise((r) => { el.onload = el.onerror = () => r(); setTimeout(r, 3000); });
const attacks = [];
const add = (tag, attrs) => { const el = document.createElement(tag); Object.assign(el, attrs); attacks.push(settle(el)); document.body.append(el); };
add('img', { src: proxy + '/v1/models?via=img' });
add('script', { src: proxy + '/v1/models?via=script' });
add('link', { rel: 'stylesheet', href: proxy + '/v1/models?via=link' });
add('iframe', { src: proxy + '/v1/models?via=iframe' });
attacks.push(fetch(proxy + '/v1/responses?via=fetch', { method: 'POST', mode: 'no-cors', body: '{"model":"x","input":"hi"}' }).catch(() => {}));
const frame = document.createElement('iframe'); frame.name = 'sink'; document.body.append(frame);
attacks.push(settle(frame));
const form = document.createElement('form');
form.method = 'POST'; form.enctype = 'text/plain'; form.target = 'sink'; form.action = proxy + '/v1/responses?via=form';
const field = document.createElement('input'); field.name = '{"model":"x","input":"'; field.value = 'hi"}'; form.append(field);
document.body.append(form); form.submit();
navigator.sendBeacon(proxy + '/v1/responses?via=beacon', '{"model":"x","input":"hi"}');
attacks.push(new Promise((r) => { try { const s = new WebSocket(${JSON.stringify(ws)} + '/v1/responses?via=ws'); s.onopen = () => { s.send('{"type":"response.create"}'); setTimeout(r, 500); }; s.onerror = s.onclose = () => r(); setTimeout(r, 3000); } catch { r(); } }));
Promise.all(attacks).then(() => setTimeout(() => { window.attacksDone = true; }, 1000));
</script>`;
}

describe('a hostile page cannot use the proxy', () => {
  let upstream: FakeUpstream;
  let c: TestCompanion;
  let page: http.Server;
  let pageUrl: string;

  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('spent')]) }) });
    upstream.onUpgrade((req, socket) => {
      upstream.requests.push({
        n: -1,
        method: 'WS',
        url: req.url ?? '',
        headers: req.headers,
        raw: Buffer.alloc(0),
        body: undefined,
        aborted: false,
        bytesWritten: 0,
      });
      socket.destroy();
    });
    c = await startTestCompanion({ apiUpstream: upstream.baseUrl });
    c.profiles.upsert({ id: 'keyed', name: 'Keyed', baseUrl: upstream.baseUrl, apiKey: fakeKey('profile-key-0123456789') });
    c.profiles.activate('keyed');
    page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(c.url)));
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((r) => page?.close(r));
    await c?.dispose();
    await upstream?.close();
  });

  it('in Chromium: img, script, link, iframe, no-cors fetch, form POST, sendBeacon and WebSocket reach no upstream', async () => {
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: CHROMIUM_ARGS,
    });
    try {
      const tab = await browser.newPage();
      const proxyRequests: string[] = [];
      tab.on('request', (r) => {
        if (r.url().startsWith(c.url)) proxyRequests.push(r.url());
      });
      await tab.goto(pageUrl);
      await tab.waitForFunction(() => (window as unknown as { attacksDone?: boolean }).attacksDone === true, null, { timeout: 20_000 });
      // The attacks really went out: each way reached the companion's port.
      // (Playwright does not report WebSocket handshakes as requests.)
      for (const via of ['img', 'script', 'link', 'iframe', 'fetch', 'form', 'beacon'])
        expect(
          proxyRequests.some((u) => u.includes(`via=${via}`)),
          via,
        ).toBe(true);
      expect(upstream.requests.map((r) => r.url)).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('in Firefox ESR: the same attacks reach no upstream', async () => {
    const firefox = await launchFirefoxWithExtension(null);
    try {
      await firefox.navigate(pageUrl);
      const end = Date.now() + 20_000;
      while (!(await firefox.evaluate<boolean>('window.attacksDone === true')) && Date.now() < end)
        await new Promise((r) => setTimeout(r, 200));
      expect(await firefox.evaluate<boolean>('window.attacksDone === true')).toBe(true);
      expect(upstream.requests.map((r) => r.url)).toEqual([]);
    } finally {
      await firefox.close();
    }
  });
});
