import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Store } from '../../../companion/store/store';
import { createLogger } from '../../../companion/lib/log';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { httpFixtureNames, loadFixture } from '../../support/fixtures';
import { replayFixture } from '../../support/flows';
import { codexSession, stepRecord } from '../../support/session';
import { tempHome } from '../../support/companion';
import { measureStorage } from '../../support/storage-ratio';

const log = createLogger('silent');
const homes: string[] = [];
function home(): string {
  const h = tempHome('codex-devtools-store-');
  homes.push(h);
  return h;
}
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

async function sessionRecords(n: number): Promise<ExchangeRecord[]> {
  const out: ExchangeRecord[] = [];
  for (const step of codexSession(n)) out.push(await stepRecord(step));
  return out;
}

/**
 * Makes every write that needs a new page fail as a full disk does (SQLITE_FULL, which SQLite
 * returns for ENOSPC), and gives the space back.
 */
function fillDisk(store: Store): () => void {
  const pages = store.database.pragma('page_count', { simple: true }) as number;
  store.database.pragma(`max_page_count = ${pages}`);
  return () => store.database.pragma('max_page_count = 4294967294');
}

describe('the durable store (SQLite)', () => {
  it('gives back every fixture record exactly as it was stored, after a reopen', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    const records: ExchangeRecord[] = [];
    for (const name of httpFixtureNames()) records.push(await replayFixture(loadFixture(name)));
    for (const r of records) await store.append(r);
    const reopened = Store.open({ home: h, log });
    for (const r of records) expect(await reopened.get(r.id)).toEqual(r);
    expect(reopened.stats()).toMatchObject({ exchanges: records.length, corruptLines: 0, writeErrors: 0 });
  });

  it('stores a thread as deltas and rebuilds each request’s full input', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    const records = await sessionRecords(12);
    for (const r of records) await store.append(r);
    const reopened = Store.open({ home: h, log });
    for (const r of records) expect(await reopened.get(r.id)).toEqual(r);
  });

  it('takes the input items the next request resends from it, and reads back only the others', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    const [before, next] = await sessionRecords(2);
    await store.append(before);
    const reopened = Store.open({ home: h, log });
    const inputOf = (r: ExchangeRecord | null) => (r?.request.body as { input: unknown[] }).input;
    const read = await reopened.get(before.id, next);
    expect(read).toEqual(before);
    // The same objects as the next request's: nothing of them was read back and parsed.
    const resent = inputOf(next).slice(0, inputOf(before).length);
    expect(inputOf(read).every((item, i) => item === resent[i])).toBe(true);
    // Items the next request does not carry come from the store.
    const other = await stepRecord(codexSession(1, 7)[0]);
    const alone = await reopened.get(before.id, other);
    expect(alone).toEqual(before);
    expect(inputOf(alone).some((item, i) => item === resent[i])).toBe(false);
  });

  it('lists newest first with filters and pages by `before`', async () => {
    const store = Store.open({ home: home(), log });
    // A second apart, ending before the fixture's: records made within one millisecond would tie on `until` below.
    const made = await sessionRecords(5);
    const records = made.map((r, i) => {
      const shift = made[0].startedAt - 10_000 + i * 1000 - r.startedAt;
      return { ...r, startedAt: r.startedAt + shift, endedAt: r.endedAt === null ? null : r.endedAt + shift };
    });
    const other = await replayFixture(loadFixture('e-subagent-v1-3'));
    for (const r of [...records, other]) await store.append(r);
    const page1 = store.list({ limit: 2 });
    expect(page1.items.map((s) => s.id)).toEqual([other.id, records[4].id]);
    const page2 = store.list({ limit: 2, before: page1.nextBefore! });
    expect(page2.items.map((s) => s.id)).toEqual([records[3].id, records[2].id]);
    expect(store.list({ thread: other.threadId! }).items.map((s) => s.id)).toEqual([other.id]);
    expect(store.list({ session: records[0].sessionId!, limit: 100 }).items).toHaveLength(5);
    // The search reads summaries (a tool-call response's preview names its call), not bodies or headers.
    expect(store.list({ q: 'CAT SRC/FILE3' }).items.map((s) => s.id)).toEqual([records[3].id]);
    expect(store.list({ q: 'installation_id' }).items).toHaveLength(0);
    expect(store.list({ status: 'completed' }).items).toHaveLength(6);
    // What the analysis reads after every exchange: its thread's latest before it, newest first.
    const q = { thread: records[0].threadId!, until: records[3].startedAt, limit: 2 };
    const candidates = store.chainCandidates(q.thread, records[0].sessionId, q.until, q.limit);
    expect(candidates.map((s) => s.id)).toEqual([records[2].id, records[1].id]);
    expect(candidates).toEqual(store.list(q).items);
  });

  it('grows with what is new: a 200-request session takes at most 3% of plain JSONL, after a checkpoint', async () => {
    const { naive, stored } = await measureStorage(home(), 200);
    const ratio = stored / naive;
    expect(naive).toBeGreaterThan(50 * 1024 * 1024);
    expect(ratio).toBeLessThanOrEqual(0.03);
  });

  it('deletes a session, clears everything, and prunes the oldest sessions past its size cap', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    const a = await replayFixture(loadFixture('a-plain-text-1'));
    const b = await replayFixture(loadFixture('b-tool-call-1'));
    const c = await replayFixture(loadFixture('c-reasoning-1'));
    for (const r of [a, b, c]) await store.append(r);
    expect(await store.deleteSession(a.sessionId!)).toBe(1);
    expect(store.list({}).items.map((s) => s.id)).toEqual([c.id, b.id]);
    expect(Store.open({ home: h, log }).list({}).items).toHaveLength(2);
    store.maxBytes = 1;
    expect(store.pruneIfNeeded()).toBe(1);
    expect(store.list({}).items.map((s) => s.id)).toEqual([c.id]);
    expect(await store.clear()).toBe(1);
    expect(Store.open({ home: h, log }).list({}).items).toHaveLength(0);
  });

  it('applies later updates to a summary and keeps them across a reopen', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    const r = await replayFixture(loadFixture('e-subagent-v1-3'));
    await store.append(r);
    await store.update(r.id, { agent: { ...r.agent, nickname: 'Plato' } });
    expect(store.summary(r.id)?.agent.nickname).toBe('Plato');
    expect(Store.open({ home: h, log }).summary(r.id)?.agent.nickname).toBe('Plato');
  });

  it('creates its database owner-only, and tightens a state directory left open to others', async () => {
    const h = home();
    const first = Store.open({ home: h, log });
    await first.append((await sessionRecords(1))[0]);
    for (const f of ['store.db', 'store.db-wal']) expect(fs.statSync(path.join(h, f)).mode & 0o777, f).toBe(0o600);
    expect(fs.statSync(h).mode & 0o777).toBe(0o700);
    first.close();
    fs.chmodSync(h, 0o777);
    fs.chmodSync(path.join(h, 'store.db'), 0o666);
    Store.open({ home: h, log }).close();
    expect(fs.statSync(h).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(h, 'store.db')).mode & 0o777).toBe(0o600);
  });

  it('keeps capturing in memory when the disk is full, counts the failures, and writes everything once it can', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    const records = await sessionRecords(4);
    await store.append(records[0]);
    const giveBack = fillDisk(store);
    await store.append(records[1]);
    await store.append(records[2]);
    expect(store.stats()).toMatchObject({ writeErrors: 2, pendingWrites: 2 });
    expect(store.stats().lastWriteError?.message).toMatch(/SQLITE_FULL/);
    expect(await store.get(records[1].id)).toEqual(records[1]);
    expect(store.summary(records[2].id)?.id).toBe(records[2].id);
    giveBack();
    await store.append(records[3]);
    expect(store.stats().pendingWrites).toBe(0);
    store.close();
    const reopened = Store.open({ home: h, log });
    for (const r of records) expect(await reopened.get(r.id)).toEqual(r);
  });

  it('retries failed writes on a timer with backoff, counts each failed write once, and marks the recovery', async () => {
    const h = home();
    const store = Store.open({ home: h, log, retryDelayMs: { first: 1000, max: 4000 } });
    const records = await sessionRecords(2);
    await store.append(records[0]);
    const giveBack = fillDisk(store);
    // The retry timer is faked; a record's write still runs at the end of its turn of the loop.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await store.append(records[1]);
      await store.attachAnalysis(records[1].id, { version: 1 } as never, { costUsd: 0.5 });
      // The record and its analysis: two writes held back, each counted once.
      expect(store.stats()).toMatchObject({ writeErrors: 2, pendingWrites: 2, writeFailing: true });
      // Retries at 1 s, 2 s, 4 s, 4 s: all fail, none is a new failed write.
      vi.advanceTimersByTime(1000 + 2000 + 4000 + 4000);
      expect(store.stats()).toMatchObject({ writeErrors: 2, pendingWrites: 2, writeFailing: true });
      expect(store.stats().lastWriteError).toMatchObject({ message: expect.stringMatching(/SQLITE_FULL/), recoveredAt: null });
      giveBack();
      // Space is back: the next retry writes the pending writes without any new write arriving.
      vi.advanceTimersByTime(4000);
      expect(store.stats()).toMatchObject({ writeErrors: 2, pendingWrites: 0, writeFailing: false });
      expect(store.stats().lastWriteError?.recoveredAt).toEqual(expect.any(Number));
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
      store.close();
    }
    const reopened = Store.open({ home: h, log });
    expect(await reopened.get(records[1].id)).toEqual({ ...records[1], costUsd: 0.5, analysis: { version: 1 } });
  });

  it('refuses a database written by a newer version instead of misreading it', () => {
    const h = home();
    const store = Store.open({ home: h, log });
    store.database.pragma('user_version = 99');
    store.close();
    expect(() => Store.open({ home: h, log })).toThrow(/newer codex-devtools/);
  });
});
