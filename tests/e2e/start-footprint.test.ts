/**
 * What the built companion loads before any traffic: the memory a companion idling all day keeps.
 * A preload in every thread (support/footprint-probe.mjs) records what the start path should
 * never need.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../support/cli';
import { tempHomes } from '../support/companion';
import { freePort } from '../support/ports';
import { rawRequest } from '../support/http';
import { openFeed } from '../support/live-client';

const home = tempHomes();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the companion at rest', () => {
  let c: RunningCli;
  let port: number;
  let probe: string;
  let auth: Record<string, string>;
  let token: string;
  beforeAll(async () => {
    const h = home();
    probe = path.join(h, 'probe');
    fs.mkdirSync(probe);
    port = await freePort();
    c = startCli(['start', '--port', String(port), '--home', h], {
      env: { NODE_OPTIONS: `--import ${path.resolve('tests/support/footprint-probe.mjs')}`, PROBE_DIR: probe, TZ: 'Europe/Paris' },
    });
    await c.waitFor('listening on');
    token = fs.readFileSync(path.join(h, 'token'), 'utf8').trim();
    auth = { authorization: `Bearer ${token}` };
  });
  afterAll(() => c.stop());

  const read = (name: string) => (fs.existsSync(path.join(probe, name)) ? fs.readFileSync(path.join(probe, name), 'utf8') : '');
  const modules = () => read('modules.log');
  /** zod in a thread as the probe last saw it (it looks every 50 ms). */
  const zodIn = async (thread: 'main' | 'worker') => {
    while (!read(`zod-${thread}`)) await sleep(20);
    await sleep(120);
    return read(`zod-${thread}`);
  };

  it('loads the API (Hono, the schemas) with the first API request and `ws` with the first live client, undici by part', async () => {
    // The probe's log works: the forward path's agent is loaded at start.
    expect(modules()).toMatch(/node_modules\/undici\/lib\/dispatcher\/agent\.js$/m);
    expect(modules()).not.toMatch(/node_modules\/undici\/index\.js$/m);
    expect(modules()).not.toMatch(/node_modules\/(hono|@hono\/node-server|ws)\//);

    // The live counters ("today" in the local zone) are computed, and served, by now.
    expect((await rawRequest(`http://127.0.0.1:${port}/api/status`, { headers: auth })).status).toBe(200);
    expect(modules()).toMatch(/node_modules\/hono\//);
    expect(modules()).not.toMatch(/node_modules\/ws\//);

    const feed = await openFeed(`http://127.0.0.1:${port}`, { token });
    await feed.waitFor('feed/snapshot');
    feed.close();
    expect(modules()).toMatch(/node_modules\/ws\//);
  });

  it('keeps the schemas (zod) out of the capture worker; the main thread, which validates its state files, has them', async () => {
    expect(await zodIn('main')).toBe('true');
    expect(await zodIn('worker')).toBe('false');
  });

  // Without the zone's file the name comes from Intl, as it should (lib/local-zone.ts).
  it.skipIf(!fs.existsSync('/usr/share/zoneinfo/Europe/Paris'))(
    'makes no Intl date formatter until a report asks for days (ICU locale data, about 8 MB)',
    async () => {
      expect(read('intl.log')).toBe('');
      // The probe sees the capture worker's formatters: a usage report's days are formatted there.
      const usage = await rawRequest(`http://127.0.0.1:${port}/api/usage`, { headers: auth });
      expect(usage.status).toBe(200);
      expect(JSON.parse(usage.body.toString()).timeZone).toBe('Europe/Paris');
      expect(read('intl.log')).toMatch(/^worker: /m);
    },
  );
});
