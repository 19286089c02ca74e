/** `codex-devtools import` and `usage` as a user runs them: the built command, real files, a real companion. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli';
import { startTestCompanion, tempHomes } from '../support/companion';
import { freePort } from '../support/ports';

const FIXTURES = path.resolve('tests/fixtures/rollouts');
const home = tempHomes();

const importArgs = (h: string, port: number) => [
  'import',
  '--codex-home',
  path.join(FIXTURES, 'subagent-v1'),
  '--codex-home',
  path.join(FIXTURES, 'legacy-fork'),
  '--home',
  h,
  '--port',
  String(port),
];

describe('codex-devtools import and usage', () => {
  it('imports into the state directory when no companion runs, and says what it did', async () => {
    const h = home();
    const port = await freePort();
    const r = await cli(importArgs(h, port));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Imported 7 exchanges from 4 files (4 threads); 0 already known.');
    const again = await cli(importArgs(h, port));
    expect(again.stdout).toContain('Imported 0 exchanges from 4 files (4 threads); 7 already known.');
    const malformed = await cli(['import', '--codex-home', path.join(FIXTURES, 'malformed'), '--home', h, '--port', String(port)]);
    expect(malformed.stdout).toContain('Skipped 5 malformed lines.');
  }, 120_000);

  it('prints usage as a table and as JSON, grouped and filtered, with "as Codex counts" beside all traffic', async () => {
    const h = home();
    const port = await freePort();
    await cli(importArgs(h, port));
    const json = await cli(['usage', '--json', '--home', h, '--port', String(port)]);
    expect(json.code).toBe(0);
    const u = JSON.parse(json.stdout);
    // subagent-v1: Codex printed 2,660 (the child's 916 is not in it); legacy-fork: 250 + 480 + 540.
    expect(u.total).toMatchObject({ codexTokensUsed: 2660 + 1270, allTrafficTokens: 2660 + 916 + 1270, exchanges: 7 });
    expect(u.rows.map((r: { key: string }) => r.key)).toEqual(['2025-09-10', '2026-12-01']);
    const since = JSON.parse(
      (await cli(['usage', '--json', '--since', '2026-01-01', '--by', 'thread', '--home', h, '--port', String(port)])).stdout,
    );
    expect(since.total.codexTokensUsed).toBe(2660);
    expect(since.rows).toHaveLength(2);
    const table = await cli(['usage', '--by', 'model', '--home', h, '--port', String(port)]);
    expect(table.stdout).toMatch(/^model\s+exchanges\s+as Codex counts\s+all traffic/);
    expect(table.stdout).toMatch(/\ntotal\s+7\s+3,930\s+4,846\s/);
    const bad = await cli(['usage', '--by', 'week', '--home', h, '--port', String(port)]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--by must be day, session, model or thread/);
  }, 120_000);

  it('goes through the running companion on its state directory: its own figures change at once', async () => {
    const c = await startTestCompanion();
    try {
      const r = await cli(importArgs(c.home, c.port));
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Imported 7 exchanges');
      expect((await c.store.usage({})).codexTokensUsed).toBe(2660 + 1270);
      const u = JSON.parse((await cli(['usage', '--json', '--home', c.home, '--port', String(c.port)])).stdout);
      expect(u.total.codexTokensUsed).toBe(2660 + 1270);
    } finally {
      await c.dispose();
    }
  });
});
