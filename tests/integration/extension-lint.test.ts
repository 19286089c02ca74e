/**
 * The web-ext lint step of npm test (scripts/lint-extension.mjs) on a small extension made here: a
 * reviewed third-party warning (zod's eval probe, as bundled) passes; the same kind of warning from
 * any other code fails, and so does an error. Real web-ext, real addons-linter.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ZOD_PROBE = 'var kr=mr(()=>{if(wi.jitless)return!1;try{return Function(``),!0}catch{return!1}});';

let dir: string;

function extension(files: Record<string, string>, manifest: Record<string, unknown> = {}): void {
  fs.writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({
      manifest_version: 3,
      name: 'Lint check',
      version: '1.0.0',
      browser_specific_settings: {
        gecko: { id: 'lint@example.org', strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } },
        gecko_android: { strict_min_version: '142.0' },
      },
      background: { scripts: ['background.js'] },
      ...manifest,
    }),
  );
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
}

const lint = () => spawnSync(process.execPath, ['scripts/lint-extension.mjs', dir], { encoding: 'utf8', timeout: 120_000 });

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-devtools-lint-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the web-ext lint check', () => {
  it('passes a warning that is on the reviewed list', () => {
    extension({ 'background.js': `${ZOD_PROBE}console.log(kr);\n` });
    const r = lint();
    expect(r.stdout).toContain('reviewed DANGEROUS_EVAL in background.js (zod');
    expect(r.stdout).toContain('no errors, 1 reviewed warnings');
    expect(r.status).toBe(0);
  });

  it('fails on the same kind of warning from code that is not on the list', () => {
    extension({ 'background.js': `${ZOD_PROBE}\nconst f = new Function('a', 'return a');\ndocument.body.innerHTML = location.hash;\n` });
    const r = lint();
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/unreviewed warning DANGEROUS_EVAL background\.js:2/);
    expect(r.stdout).toMatch(/unreviewed warning UNSAFE_VAR_ASSIGNMENT background\.js:3/);
    expect(r.stdout).toContain('0 errors, 2 unreviewed warnings');
  });

  it('fails on an error', () => {
    extension({ 'background.js': 'console.log(1);\n' }, { background: { scripts: ['missing.js'] } });
    const r = lint();
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/web-ext lint: error /);
  });
});
