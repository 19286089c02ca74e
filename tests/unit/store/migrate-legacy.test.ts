import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../companion/lib/log';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { hasLegacyStore, importLegacyStore } from '../../../companion/store/migrate-legacy';
import { Store } from '../../../companion/store/store';
import { tempHomes } from '../../support/companion';
import { storesClosedAfterEach } from '../../support/stores';

const FIXTURE = path.resolve('tests/fixtures/store-0.1.0');
const expected = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'expected.json'), 'utf8')) as ExchangeRecord[];
const log = createLogger('silent');
const homes = tempHomes('codex-devtools-migrate-');
const closeAfter = storesClosedAfterEach();

/** A copy of the fixture's state directory, as a user upgrading from 0.1.0 has it. */
function legacyHome(): string {
  const h = homes();
  fs.cpSync(path.join(FIXTURE, 'home'), h, { recursive: true });
  return h;
}

function openStore(h: string): Store {
  const s = closeAfter(Store.open({ home: h, log }));
  return s;
}

describe('migrating a 0.1.0 state directory into SQLite', () => {
  it('imports every exchange exactly as 0.1.0 read it back, says how many, and then removes the old files', async () => {
    const h = legacyHome();
    const store = openStore(h);
    const lines: string[] = [];
    const result = await importLegacyStore(
      store,
      h,
      createLogger('info', (l) => lines.push(l)),
    );
    expect(result).toMatchObject({ migrated: expected.length, skipped: 0, removedOldFiles: true });
    expect(lines).toContainEqual(expect.stringContaining(`migrated ${expected.length} exchanges from the 0.1.0 format`));
    for (const r of expected) expect(await store.get(r.id)).toEqual(r);
    expect(store.summary(expected[7].id)?.agent.nickname).toBe('Plato');
    expect(hasLegacyStore(h)).toBe(false);
    expect(fs.existsSync(path.join(h, 'store.json'))).toBe(false);
    store.close();
    const reopened = openStore(h);
    for (const r of expected) expect(await reopened.get(r.id)).toEqual(r);
    expect(await importLegacyStore(reopened, h, log)).toMatchObject({ migrated: 0, removedOldFiles: false });
  });

  it('stores the migrated threads as deltas again, and their roll-ups match the records', async () => {
    const h = legacyHome();
    const store = openStore(h);
    await importLegacyStore(store, h, log);
    const thread = store.database
      .prepare('SELECT input_base, input_keep FROM exchanges WHERE session_key = ? ORDER BY started_at')
      .all(expected[0].sessionId) as { input_base: string | null; input_keep: number }[];
    expect(thread).toHaveLength(4);
    expect(thread[0].input_base).toBeNull();
    for (const row of thread.slice(1)) expect(row.input_keep).toBeGreaterThan(0);
    const all = store.totals({}).all;
    expect(all.exchanges).toBe(expected.filter((r) => r.kind === 'model').length);
    expect(all.costUsd).toBeCloseTo(
      expected.reduce((sum, r) => sum + (r.costUsd ?? 0), 0),
      9,
    );
  });

  it('keeps the old files when a write fails, and finishes on the next run', async () => {
    const h = legacyHome();
    const store = openStore(h);
    const pages = store.database.pragma('page_count', { simple: true }) as number;
    store.database.pragma(`max_page_count = ${pages}`);
    const failed = await importLegacyStore(store, h, log);
    expect(failed.removedOldFiles).toBe(false);
    expect(failed.message).toMatch(/old files are kept/);
    expect(hasLegacyStore(h)).toBe(true);
    store.database.pragma('max_page_count = 4294967294');
    // Closing makes a last attempt at the waiting writes: space is back, so they land.
    store.close();
    const again = openStore(h);
    const done = await importLegacyStore(again, h, log);
    expect(done).toMatchObject({ migrated: 0, skipped: expected.length, removedOldFiles: true });
    expect(hasLegacyStore(h)).toBe(false);
    for (const r of expected) expect(await again.get(r.id)).toEqual(r);
  });
});
