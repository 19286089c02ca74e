/**
 * What the built companion loads before any traffic: the memory a companion idling all day keeps.
 * A preload in every thread records what the start path should never need.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from '../support/cli';
import { tempHomes } from '../support/companion';
import { freePort } from '../support/ports';
import { rawRequest } from '../support/http';

const home = tempHomes();

describe('the companion at rest', () => {
  // Without the zone's file the name comes from Intl, as it should (lib/local-zone.ts).
  it.skipIf(!fs.existsSync('/usr/share/zoneinfo/Europe/Paris'))(
    'makes no Intl date formatter until a report asks for days (ICU locale data, about 8 MB)',
    async () => {
      const h = home();
      const probe = path.join(h, 'intl.log');
      const port = await freePort();
      const c = startCli(['start', '--port', String(port), '--home', h], {
        env: { NODE_OPTIONS: `--import ${path.resolve('tests/support/intl-probe.mjs')}`, INTL_PROBE_FILE: probe, TZ: 'Europe/Paris' },
      });
      try {
        await c.waitFor('listening on');
        const token = fs.readFileSync(path.join(h, 'token'), 'utf8').trim();
        const auth = { authorization: `Bearer ${token}` };
        // The live counters ("today" in the local zone) are computed, and served, before this.
        const status = await rawRequest(`http://127.0.0.1:${port}/api/status`, { headers: auth });
        expect(status.status).toBe(200);
        expect(fs.existsSync(probe) ? fs.readFileSync(probe, 'utf8') : '').toBe('');
        // The probe sees the capture worker's formatters: a usage report's days are formatted there.
        const usage = await rawRequest(`http://127.0.0.1:${port}/api/usage`, { headers: auth });
        expect(usage.status).toBe(200);
        expect(JSON.parse(usage.body.toString()).timeZone).toBe('Europe/Paris');
        expect(fs.readFileSync(probe, 'utf8')).toMatch(/^worker: /m);
      } finally {
        await c.stop();
      }
    },
  );
});
