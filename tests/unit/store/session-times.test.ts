import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../companion/lib/log';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { summaryOf } from '../../../companion/store/codec';
import { Store } from '../../../companion/store/store';
import { tempHomes } from '../../support/companion';
import { codexSession, stepRecord } from '../../support/session';
import { storesClosedAfterEach } from '../../support/stores';

const log = createLogger('silent');
const homes = tempHomes('codex-devtools-session-times-');
const closeAfter = storesClosedAfterEach();
let template: ExchangeRecord;
beforeAll(async () => {
  template = await stepRecord(codexSession(1)[0]);
});

const T = 1_790_000_000_000;
function record(id: string, session: string, startedAt: number, endedAt: number | null): ExchangeRecord {
  return { ...template, id, sessionId: session, threadId: session, startedAt, endedAt };
}
const streaming = (r: ExchangeRecord) => ({ ...summaryOf(r), status: 'streaming' as const, usage: null });
const times = (store: Store, session: string) => {
  const row = store.sessions({ limit: 10 }).items.find((s) => s.sessionId === session);
  return row ? { startedAt: row.startedAt, endedAt: row.endedAt, rows: row.rows } : null;
};

describe("a session's first and last times as its exchanges' rows change", () => {
  it('follow an exchange from its begun row to its record, and an analysis that leaves its times alone', async () => {
    const store = closeAfter(Store.open({ home: homes(), log }));
    await store.append(record('a', 's', T, T + 1000));
    const b = record('b', 's', T + 2000, T + 5000);
    store.begin(streaming({ ...b, endedAt: null }), b.request);
    store.flushPending();
    expect(times(store, 's')).toEqual({ startedAt: T, endedAt: T + 2000, rows: 2 });
    await store.append(b);
    expect(times(store, 's')).toEqual({ startedAt: T, endedAt: T + 5000, rows: 2 });
    await store.attachAnalysis('b', { version: 2 } as never, { costUsd: 0.5 });
    expect(times(store, 's')).toEqual({ startedAt: T, endedAt: T + 5000, rows: 2 });
  });

  it('are recomputed when a row moves back in time or to another session', async () => {
    const store = closeAfter(Store.open({ home: homes(), log }));
    await store.append(record('a', 's', T + 1000, T + 2000));
    // Begun earlier and ending later than the finished record says: both extremes were this row's.
    const b = record('b', 's', T + 1500, T + 1800);
    store.begin(streaming({ ...b, startedAt: T, endedAt: T + 9000 }), b.request);
    store.flushPending();
    expect(times(store, 's')).toEqual({ startedAt: T, endedAt: T + 9000, rows: 2 });
    await store.append(b);
    expect(times(store, 's')).toEqual({ startedAt: T + 1000, endedAt: T + 2000, rows: 2 });
    // Begun in one session, stored in another: the first loses it, the second gains it.
    const c = record('c', 't', T + 3000, T + 4000);
    store.begin(streaming({ ...c, sessionId: 's' }), c.request);
    store.flushPending();
    expect(times(store, 's')).toEqual({ startedAt: T + 1000, endedAt: T + 4000, rows: 3 });
    await store.append(c);
    expect(times(store, 's')).toEqual({ startedAt: T + 1000, endedAt: T + 2000, rows: 2 });
    expect(times(store, 't')).toEqual({ startedAt: T + 3000, endedAt: T + 4000, rows: 1 });
  });
});
