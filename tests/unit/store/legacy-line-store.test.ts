import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LineStore as Store } from '../../../companion/store/legacy/line-store';
import { createLogger } from '../../../companion/lib/log';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { codexSession, stepRecord } from '../../support/session';
import { tempHome } from '../../support/companion';

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

function sessionDir(h: string): string {
  const dir = path.join(h, 'sessions');
  return path.join(dir, fs.readdirSync(dir)[0]);
}

describe('the 0.1.0 line-log store, kept to read what it wrote', () => {
  it('drops a torn final line on reopen and keeps everything before it', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    const records = await sessionRecords(3);
    for (const r of records) await store.append(r);
    const file = path.join(sessionDir(h), 'log.jsonl');
    const full = fs.readFileSync(file);
    fs.writeFileSync(file, full.subarray(0, full.length - 200));
    const reopened = Store.open({ home: h, log });
    expect(reopened.stats().tornBytes).toBeGreaterThan(0);
    expect(await reopened.get(records[0].id)).toEqual(records[0]);
    expect(await reopened.get(records[1].id)).toEqual(records[1]);
    expect(await reopened.get(records[2].id)).toBeNull();
    await reopened.append(records[2]);
    expect(await Store.open({ home: h, log }).get(records[2].id)).toEqual(records[2]);
  });

  it('loses only the corrupt record when a line in the middle is damaged, even for requests built on it', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    const records = await sessionRecords(4);
    for (const r of records) await store.append(r);
    const file = path.join(sessionDir(h), 'log.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[1] = lines[1].replace('"x"', '"X"');
    fs.writeFileSync(file, lines.join('\n'));
    const reopened = Store.open({ home: h, log });
    expect(reopened.stats().corruptLines).toBe(1);
    expect(await reopened.get(records[1].id)).toBeNull();
    for (const i of [0, 2, 3]) expect(await reopened.get(records[i].id)).toEqual(records[i]);
  });

  it('shows a corrupt shared item as unreadable in every record using it, and nothing else', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    const records = await sessionRecords(3);
    for (const r of records) await store.append(r);
    const file = path.join(sessionDir(h), 'objects.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    // The first object is the first input item, which every request of the session carries.
    lines[0] = lines[0].slice(0, 40) + 'Q' + lines[0].slice(41);
    fs.writeFileSync(file, lines.join('\n'));
    const reopened = Store.open({ home: h, log });
    for (const r of records) {
      const got = (await reopened.get(r.id)) as any;
      expect(got.request.body.input[0]).toMatchObject({ type: 'codex_devtools.unreadable' });
      expect(got.request.body.input.slice(1)).toEqual((r.request.body as any).input.slice(1));
      expect(got.response).toEqual(r.response);
    }
  });

  it('creates its files with owner-only permissions', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    await store.append((await sessionRecords(1))[0]);
    const dir = sessionDir(h);
    for (const f of ['log.jsonl', 'objects.jsonl']) expect(fs.statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(h, 'store.json')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('tightens a state directory left open to others: folders to 0700, files to 0600, symlinks untouched', async () => {
    const h = home();
    const first = Store.open({ home: h, log });
    await first.append((await sessionRecords(1))[0]);
    first.close();
    const dir = sessionDir(h);
    const outside = path.join(home(), 'elsewhere.txt');
    fs.writeFileSync(outside, 'not ours');
    fs.chmodSync(outside, 0o644);
    fs.symlinkSync(outside, path.join(h, 'link'));
    for (const d of [h, path.join(h, 'sessions'), dir]) fs.chmodSync(d, 0o777);
    for (const f of [path.join(h, 'store.json'), path.join(dir, 'log.jsonl'), path.join(dir, 'objects.jsonl')]) fs.chmodSync(f, 0o666);
    Store.open({ home: h, log });
    for (const d of [h, path.join(h, 'sessions'), dir]) expect(fs.statSync(d).mode & 0o777, d).toBe(0o700);
    for (const f of [path.join(h, 'store.json'), path.join(dir, 'log.jsonl'), path.join(dir, 'objects.jsonl')])
      expect(fs.statSync(f).mode & 0o777, f).toBe(0o600);
    expect(fs.statSync(outside).mode & 0o777).toBe(0o644);
  });

  it('keeps a session whose id looks like a hashed folder name apart from the session hashed to it', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    const [a, b] = await sessionRecords(2);
    const odd = { ...a, sessionId: 'a session id/with a slash', threadId: 't-odd' };
    await store.append(odd);
    const hashedName = fs.readdirSync(path.join(h, 'sessions'))[0];
    expect(hashedName).toMatch(/^h-[0-9a-f]{32}$/);
    const lookalike = { ...b, sessionId: hashedName, threadId: 't-lookalike' };
    await store.append(lookalike);
    expect(fs.readdirSync(path.join(h, 'sessions'))).toHaveLength(2);
    expect(await store.deleteSession(hashedName)).toBe(1);
    expect(await store.get(odd.id)).toEqual(odd);
    expect(await Store.open({ home: h, log }).get(odd.id)).toEqual(odd);
  });

  it('logs a torn final line it cuts off, naming the file', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    for (const r of await sessionRecords(2)) await store.append(r);
    const dir = sessionDir(h);
    for (const f of ['log.jsonl', 'objects.jsonl']) fs.appendFileSync(path.join(dir, f), '{"t":"x","id":"torn');
    const lines: string[] = [];
    const reopened = Store.open({ home: h, log: createLogger('info', (l) => lines.push(l)) });
    expect(reopened.stats().tornBytes).toBe(2 * '{"t":"x","id":"torn'.length);
    for (const f of ['log.jsonl', 'objects.jsonl'])
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`warn: store: cut off a torn final line \\(19 bytes\\) .*${f.replace('.', '\\.')}`)),
      );
  });

  it('keeps capturing in memory when the disk is full, counts the failures, and writes everything once it can', async () => {
    const h = home();
    const store = Store.open({ home: h, log });
    const records = await sessionRecords(4);
    await store.append(records[0]);
    const file = path.join(sessionDir(h), 'log.jsonl');
    const saved = file + '.saved';
    fs.renameSync(file, saved);
    fs.symlinkSync('/dev/full', file); // every write now fails with ENOSPC, as on a full disk
    await store.append(records[1]);
    await store.append(records[2]);
    expect(store.stats()).toMatchObject({ writeErrors: 2, pendingWrites: 2 });
    expect(store.stats().lastWriteError?.message).toMatch(/ENOSPC/);
    expect(await store.get(records[1].id)).toEqual(records[1]);
    fs.unlinkSync(file);
    fs.renameSync(saved, file);
    await store.append(records[3]);
    expect(store.stats().pendingWrites).toBe(0);
    const reopened = Store.open({ home: h, log });
    for (const r of records) expect(await reopened.get(r.id)).toEqual(r);
  });

  it('retries failed writes on a timer with backoff, counts each failed write once, and marks the recovery', async () => {
    const h = home();
    const store = Store.open({ home: h, log, retryDelayMs: { first: 1000, max: 4000 } });
    const records = await sessionRecords(2);
    await store.append(records[0]);
    const file = path.join(sessionDir(h), 'log.jsonl');
    const saved = file + '.saved';
    fs.renameSync(file, saved);
    fs.symlinkSync('/dev/full', file);
    vi.useFakeTimers();
    try {
      await store.append(records[1]);
      expect(store.stats()).toMatchObject({ writeErrors: 1, pendingWrites: 1, writeFailing: true });
      // Retries at 1 s, 2 s, 4 s, 4 s: all fail, none is a new failed write.
      vi.advanceTimersByTime(1000 + 2000 + 4000 + 4000);
      expect(store.stats()).toMatchObject({ writeErrors: 1, pendingWrites: 1, writeFailing: true });
      expect(store.stats().lastWriteError).toMatchObject({ message: expect.stringMatching(/ENOSPC/), recoveredAt: null });
      fs.unlinkSync(file);
      fs.renameSync(saved, file);
      // Space is back: the next retry writes the pending record without any new write arriving.
      vi.advanceTimersByTime(4000);
      expect(store.stats()).toMatchObject({ writeErrors: 1, pendingWrites: 0, writeFailing: false });
      expect(store.stats().lastWriteError?.recoveredAt).toEqual(expect.any(Number));
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
      store.close();
    }
    expect(await Store.open({ home: h, log }).get(records[1].id)).toEqual(records[1]);
  });

  it('refuses a store written by a newer version instead of misreading it', () => {
    const h = home();
    Store.open({ home: h, log });
    fs.writeFileSync(path.join(h, 'store.json'), JSON.stringify({ format: 99 }));
    expect(() => Store.open({ home: h, log })).toThrow(/newer codex-devtools/);
  });
});
