import { describe, expect, it } from 'vitest';
import type { ExchangeSummary } from '../../../companion/protocol';
import { QueryResults } from '../../../extension/lib/query-results';
import { fakeSummary } from '../../support/extension-factories';

const page = (items: ExchangeSummary[], nextCursor: string | null = null, matched = items.length, stored = 10, matchedCapped = false) => ({
  items,
  nextBefore: null,
  nextCursor,
  matched,
  matchedCapped,
  stored,
});
const ids = (r: QueryResults) => r.items.map((s) => s.id);

describe('the list under a query, with live exchanges', () => {
  it('keeps a count the store capped a lower bound, with live matches added, until an exact answer replaces it', () => {
    const r = new QueryResults({ q: 'kalo' });
    r.reset(page([fakeSummary({ preview: 'kalo' })], 'next', 1000, 100_000, true));
    r.live(fakeSummary({ preview: 'kalo too' }), true);
    expect([r.matchedCount, r.matchedCapped]).toEqual([1001, true]);
    r.reset(page([fakeSummary({ preview: 'kalo' })], null, 1, 10));
    expect([r.matchedCount, r.matchedCapped]).toEqual([1, false]);
  });

  it('places a matching live exchange by the sort and counts it among the matches and the stored', () => {
    const [a, b] = [fakeSummary({ costUsd: 0.5 }), fakeSummary({ costUsd: 0.1 })];
    const r = new QueryResults({ sort: 'cost', order: 'desc', minCost: 0.05 });
    r.reset(page([a, b]));
    const mid = fakeSummary({ costUsd: 0.3 });
    expect(r.live(mid, true)).toBe('placed');
    expect(ids(r)).toEqual([a.id, mid.id, b.id]);
    expect([r.matchedCount, r.storedCount]).toEqual([3, 11]);
  });

  it('only counts a live exchange that does not match, until an update makes it match', () => {
    const r = new QueryResults({ miss: 1 });
    r.reset(page([]));
    const streaming = fakeSummary({ status: 'streaming', cache: null, costUsd: null });
    expect(r.live(streaming, true)).toBe('hidden');
    expect([r.hiddenLive.size, r.items.length, r.storedCount]).toEqual([1, 0, 11]);
    const ended = { ...streaming, status: 'completed' as const, cache: { ...fakeSummary().cache!, verdict: 'miss' as const, miss: true } };
    expect(r.live(ended, false)).toBe('placed');
    expect([r.hiddenLive.size, r.shownLive.size, ids(r)]).toEqual([0, 1, [streaming.id]]);
    expect(r.storedCount).toBe(11);
  });

  it('leaves a match that sorts after the loaded rows to the next page', () => {
    const a = fakeSummary({ costUsd: 0.5 });
    const r = new QueryResults({ sort: 'cost', order: 'desc' });
    r.reset(page([a], 'cursor-1', 50, 50));
    expect(r.live(fakeSummary({ costUsd: 0.01 }), true)).toBe('placed');
    expect(ids(r)).toEqual([a.id]);
    expect(r.matchedCount).toBe(51);
  });

  it('never lets a replayed streaming summary replace a row that has ended', () => {
    const done = fakeSummary();
    const r = new QueryResults({ status: 'completed' });
    r.reset(page([done]));
    expect(r.live({ ...done, status: 'streaming' }, false)).toBe('ignored');
    expect(r.items[0].status).toBe('completed');
  });
});
