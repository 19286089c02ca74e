import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, startCli } from '../support/cli';
import { tempHomes } from '../support/companion';
import { freePort } from '../support/ports';
import { startOtlpReceiver } from '../support/otlp-receiver';

const home = tempHomes();

/** Starts the built companion, stops it, and lists the OpenTelemetry modules it had loaded. */
async function loadedOtelModules(extra: string[]): Promise<{ modules: string[]; output: string }> {
  const h = home();
  const file = path.join(h, 'loaded.json');
  const c = startCli(['start', '--port', String(await freePort()), '--home', h, ...extra], {
    env: {
      NODE_OPTIONS: `--import ${path.resolve('tests/support/loaded-modules.mjs')}`,
      LOADED_MODULES_FILE: file,
      LOADED_MODULES_MATCH: `${path.sep}@opentelemetry${path.sep}`,
    },
  });
  await c.waitFor('listening on');
  await c.stop();
  return { modules: JSON.parse(fs.readFileSync(file, 'utf8')), output: c.output() };
}

describe('codex-devtools start with OpenTelemetry export', () => {
  it('loads no OpenTelemetry module unless export is configured', async () => {
    expect((await loadedOtelModules([])).modules).toEqual([]);
    const receiver = await startOtlpReceiver();
    try {
      const on = await loadedOtelModules([
        '--otlp-endpoint',
        `http://user:pw@127.0.0.1:${new URL(receiver.url).port}`,
        '--otlp-signals',
        'traces',
      ]);
      expect(on.modules.length).toBeGreaterThan(0);
      // The banner says where export goes, with the credentials of the URL masked.
      expect(on.output).toContain(
        `OpenTelemetry export (http/protobuf): traces → http://***@127.0.0.1:${new URL(receiver.url).port}/v1/traces; no conversation text`,
      );
      expect(on.output).not.toContain('user:pw');
    } finally {
      await receiver.close();
    }
  });

  it('refuses bad export options in one line', async () => {
    for (const args of [
      ['--otlp-endpoint', 'ftp://x'],
      ['--otlp-endpoint', 'http://127.0.0.1:4318', '--otlp-header', 'novalue'],
      ['--otlp-endpoint', 'http://127.0.0.1:4318', '--otlp-signals', 'logs'],
      ['--otlp-content'],
    ]) {
      const r = await cli(['start', '--port', String(await freePort()), '--home', home(), ...args]);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toMatch(/^codex-devtools: --otlp-/);
    }
  });
});
