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

const home = tempHomes();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the companion at rest', () => {
  let c: RunningCli;
  let port: number;
  let probe: string;
  let auth: Record<string, string>;
  beforeAll(async () => {
    const h = home();
    probe = path.join(h, 'probe');
    fs.mkdirSync(probe);
    port = await freePort();
    c = startCli(['start', '--port', String(port), '--home', h], {
      env: { NODE_OPTIONS: `--import ${path.resolve('tests/support/footprint-probe.mjs')}`, PROBE_DIR: probe, TZ: 'Europe/Paris' },
    });
    await c.waitFor('listening on');
    auth = { authorization: `Bearer ${fs.readFileSync(path.join(h, 'token'), 'utf8').trim()}` };
    // The live counters ("today" in the local zone) are computed, and served, by now.
    expect((await rawRequest(`http://127.0.0.1:${port}/api/status`, { headers: auth })).status).toBe(200);
  });
  afterAll(() => c.stop());

  const read = (name: string) => (fs.existsSync(path.join(probe, name)) ? fs.readFileSync(path.join(probe, name), 'utf8') : '');

  it('keeps the schemas (zod) out of the capture worker; the main thread, which validates API input, has them', async () => {
    while (!read('zod-worker') || !read('zod-main')) await sleep(20);
    await sleep(100);
    expect(read('zod-main')).toBe('true');
    expect(read('zod-worker')).toBe('false');
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
