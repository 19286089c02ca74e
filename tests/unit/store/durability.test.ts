import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../companion/lib/log';
import type { ExchangeRecord, StreamEvent } from '../../../companion/protocol/exchange';
import { summaryOf } from '../../../companion/store/codec';
import { DB_FILE, EVENT_FLUSH_MS, Store } from '../../../companion/store/store';
import { tempHomes } from '../../support/companion';
import { codexSession, stepRecord } from '../../support/session';
import { storesClosedAfterEach } from '../../support/stores';

const log = createLogger('silent');
const homes = tempHomes('codex-devtools-durable-');
const closeAfter = storesClosedAfterEach();
function openStore(h: string): Store {
  const s = closeAfter(Store.open({ home: h, log }));
  return s;
}

/** A record as capture knows it when the request has been forwarded and nothing came back yet. */
async function started(): Promise<{ record: ExchangeRecord; events: StreamEvent[] }> {
  const record = await stepRecord(codexSession(1)[0]);
  return { record, events: record.response.events };
}

const streaming = (r: ExchangeRecord) => ({ ...summaryOf(r), status: 'streaming' as const, endedAt: null, usage: null });

/** The last turn of an `n`-turn session begun, right after the turn before it was stored; the store is then closed. */
async function begunAfterStoredTurn(n: number): Promise<{ h: string; record: ExchangeRecord }> {
  const h = homes();
  const steps = codexSession(n);
  const before = await stepRecord(steps[n - 2]);
  const record = await stepRecord(steps[n - 1]);
  const store = Store.open({ home: h, log });
  await store.append(before);
  store.begin(streaming(record), record.request);
  store.close();
  return { h, record };
}

describe('durability: a row within the flush window of an exchange’s start, events as they arrive', () => {
  it('shows an exchange left streaming by a stopped store as aborted, with its request and the events persisted', async () => {
    const h = homes();
    const { record, events } = await started();
    const first = Store.open({ home: h, log });
    first.begin(streaming(record), record.request);
    first.appendEvents(record.id, events.slice(0, 3));
    first.appendEvents(record.id, events.slice(3, 5));
    // Stopped without the end ever arriving (close persists what waits, never an end).
    first.close();
    const lines: string[] = [];
    const reopened = closeAfter(Store.open({ home: h, log: createLogger('warn', (l) => lines.push(l)) }));
    expect(lines).toContainEqual(expect.stringMatching(/1 exchange\(s\) were streaming when the companion stopped/));
    const got = await reopened.get(record.id);
    expect(got).toMatchObject({ id: record.id, status: 'aborted', captureComplete: false, error: { code: 'capture_interrupted' } });
    expect(got?.request).toEqual(record.request);
    expect(got?.response.events).toEqual(events.slice(0, 5));
    expect(reopened.list({ status: 'aborted' }).items.map((s) => s.id)).toEqual([record.id]);
    // Recovered once: a later open leaves it as it is.
    reopened.close();
    expect((await openStore(h).get(record.id))?.status).toBe('aborted');
  });

  it('keeps the streaming rows as plain JSON, and still reads the deflated ones an earlier build left', async () => {
    const h = homes();
    const { record, events } = await started();
    const first = Store.open({ home: h, log });
    first.begin(streaming(record), record.request);
    first.appendEvents(record.id, events.slice(0, 3));
    first.close();
    const db = new Database(path.join(h, DB_FILE));
    const types = db.prepare('SELECT typeof(b.begun) AS begun, (SELECT typeof(chunk) FROM exchange_events) AS chunk FROM bodies b').get();
    expect(types).toEqual({ begun: 'text', chunk: 'text' });
    // What an earlier build wrote: the same rows, deflated.
    const deflated = (json: string) => zlib.deflateRawSync(json, { level: 1 });
    db.prepare('UPDATE bodies SET begun = ?').run(deflated(JSON.stringify(record.request)));
    db.prepare('UPDATE exchange_events SET chunk = ?').run(deflated(JSON.stringify(events.slice(0, 3))));
    db.close();
    const got = await openStore(h).get(record.id);
    expect(got?.request).toEqual(record.request);
    expect(got?.response.events).toEqual(events.slice(0, 3));
  });

  it("keeps a later turn's request as its new items plus a reference to the turn before, and reads it back whole", async () => {
    const { h, record } = await begunAfterStoredTurn(30);
    const db = new Database(path.join(h, DB_FILE), { readonly: true });
    const begun = (
      db.prepare('SELECT b.begun FROM bodies b JOIN exchanges e ON e.rowid = b.rowid WHERE e.id = ?').get(record.id) as {
        begun: string;
      }
    ).begun;
    db.close();
    const whole = JSON.stringify(record.request).length;
    // The turn resends 29 turns of history and adds three items: the row holds those three.
    const added = (record.request.body as { input: unknown[] }).input.slice(-3);
    expect(begun.length).toBeLessThan(whole / 5);
    expect(begun.length).toBeLessThan(JSON.stringify(record.request.headers).length + JSON.stringify(added).length + 4000);
    const got = await openStore(h).get(record.id);
    expect(got?.status).toBe('aborted');
    expect(got?.request).toEqual(record.request);
    expect(JSON.stringify(got?.request)).toBe(JSON.stringify(record.request));
  });

  it('reads the items of a begun request whose earlier turn is gone as unreadable, and keeps its new ones', async () => {
    const { h, record } = await begunAfterStoredTurn(3);
    const db = new Database(path.join(h, DB_FILE));
    db.prepare('DELETE FROM items').run();
    db.close();
    const input = (await openStore(h).get(record.id))?.request.body as { input: unknown[] };
    const sent = (record.request.body as { input: unknown[] }).input;
    expect(input.input).toHaveLength(sent.length);
    expect(input.input.slice(-3)).toEqual(sent.slice(-3));
    expect(input.input.slice(0, -3)).toEqual(sent.slice(0, -3).map(() => expect.objectContaining({ type: 'codex_devtools.unreadable' })));
  });

  it('writes the begun row and batched events within the flush window, and drops the events once the exchange ends', async () => {
    const h = homes();
    const { record, events } = await started();
    const store = openStore(h);
    store.begin(streaming(record), record.request);
    store.appendEvents(record.id, events.slice(0, 2));
    const count = () => (store.database.prepare('SELECT count(*) AS n FROM exchange_events').get() as { n: number }).n;
    expect(store.summary(record.id)).toBeNull();
    expect(count()).toBe(0);
    await new Promise((r) => setTimeout(r, EVENT_FLUSH_MS + 50));
    expect(store.summary(record.id)?.status).toBe('streaming');
    expect(count()).toBe(1);
    await store.append(record);
    expect(count()).toBe(0);
    expect(await store.get(record.id)).toEqual(record);
    store.close();
    expect(await openStore(h).get(record.id)).toEqual(record);
  });

  it('never takes the streaming exchanges of a store still open in this process for a crash’s', async () => {
    const h = homes();
    const { record } = await started();
    const live = openStore(h);
    live.begin(streaming(record), record.request);
    live.flushPending();
    const other = openStore(h);
    expect(other.summary(record.id)?.status).toBe('streaming');
    await live.append(record);
    expect((await other.get(record.id))?.status).toBe('completed');
  });

  it('keeps what a process killed with SIGKILL mid-stream had persisted', async () => {
    const h = homes();
    const { record, events } = await started();
    const script = path.join(h, 'crash.ts');
    const input = path.join(h, 'input.json');
    fs.writeFileSync(input, JSON.stringify({ summary: streaming(record), request: record.request, events: events.slice(0, 4) }));
    fs.writeFileSync(
      script,
      `import fs from 'node:fs';
import { Store, EVENT_FLUSH_MS } from ${JSON.stringify(path.resolve('companion/store/store.ts'))};
import { createLogger } from ${JSON.stringify(path.resolve('companion/lib/log.ts'))};
const { summary, request, events } = JSON.parse(fs.readFileSync(${JSON.stringify(input)}, 'utf8'));
const store = Store.open({ home: ${JSON.stringify(h)}, log: createLogger('silent') });
store.begin(summary, request);
store.appendEvents(summary.id, events);
setTimeout(() => process.kill(process.pid, 'SIGKILL'), EVENT_FLUSH_MS + 100);
`,
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.signal).toBe('SIGKILL');
    const got = await openStore(h).get(record.id);
    expect(got).toMatchObject({ status: 'aborted', request: record.request });
    expect(got?.response.events).toEqual(events.slice(0, 4));
  });
});

describe('an exchange that ends within the flush window', () => {
  it('is written once, finished: its begun row never reaches the disk, then or later', async () => {
    const { record } = await started();
    const changes = (s: Store) => (s.database.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    const alone = openStore(homes());
    await alone.append(record);
    const begun = openStore(homes());
    begun.begin(streaming(record), record.request);
    begun.appendEvents(record.id, record.response.events.slice(0, 2));
    await begun.append(record);
    expect(changes(begun)).toBe(changes(alone));
    await new Promise((r) => setTimeout(r, EVENT_FLUSH_MS + 50));
    expect(changes(begun)).toBe(changes(alone));
    expect(await begun.get(record.id)).toEqual(record);
  });

  it('is written begun when the window closes first, and a deleted session’s waiting row is not written', async () => {
    const { record } = await started();
    const store = openStore(homes());
    store.begin(streaming(record), record.request);
    await store.deleteSession(record.sessionId ?? '');
    store.flushPending();
    expect(store.summary(record.id)).toBeNull();
    store.begin(streaming(record), record.request);
    store.flushPending();
    expect(store.summary(record.id)?.status).toBe('streaming');
  });
});

describe('exchanges that finish in the same turn of the loop', () => {
  it('are written in one transaction at its end, each served from memory until then', async () => {
    const h = homes();
    const store = openStore(h);
    const records = await Promise.all(codexSession(4).map((s) => stepRecord(s)));
    const transactions = vi.spyOn(store.database, 'transaction');
    const onDisk = () => {
      const reader = new Database(path.join(h, DB_FILE), { readonly: true });
      try {
        return (reader.prepare('SELECT count(*) AS n FROM exchanges').get() as { n: number }).n;
      } finally {
        reader.close();
      }
    };
    const together = Promise.all(records.slice(0, 3).map((r) => store.append(r)));
    // Packed (a few microtasks), not yet written: the turn has not ended.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(onDisk()).toBe(0);
    expect(store.summary(records[0].id)?.id).toBe(records[0].id);
    await together;
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(onDisk()).toBe(3);
    await store.append(records[3]);
    expect(transactions).toHaveBeenCalledTimes(2);
    expect(onDisk()).toBe(4);
    const reopened = openStore(h);
    for (const r of records) expect(await reopened.get(r.id)).toEqual(r);
  });

  it('are written before a page is read in the same turn, and listed in it', async () => {
    const store = openStore(homes());
    const record = await stepRecord(codexSession(1)[0]);
    const appended = store.append(record);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(store.list({}).items.map((s) => s.id)).toEqual([record.id]);
    await appended;
    expect(store.list({}).items.map((s) => s.id)).toEqual([record.id]);
  });

  it('count as stored for a rollout import before their transaction ran', async () => {
    const store = openStore(homes());
    const record = { ...(await stepRecord(codexSession(1)[0])), responseId: 'resp_gathering' };
    const appended = store.append(record);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(store.hasResponse('resp_gathering')).toBe(true);
    expect(store.hasResponse('resp_other')).toBe(false);
    await appended;
    expect(store.hasResponse('resp_gathering')).toBe(true);
  });
});
