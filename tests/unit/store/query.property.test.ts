import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../companion/lib/log';
import type { ExchangeRecord, ExchangeSummary } from '../../../companion/protocol/exchange';
import { matchesQuery, sortsBefore } from '../../../companion/protocol/exchange-match';
import { Store, type ListQuery, type StoreOptions } from '../../../companion/store/store';
import { tempHomes } from '../../support/companion';
import { codexSession, stepRecord } from '../../support/session';
import { buildRecords, exchangeSpec, Oracle, SORTS, WORDS } from '../../support/store-oracle';
import { storesClosedAfterEach } from '../../support/stores';

const log = createLogger('silent');
const homes = tempHomes('codex-devtools-query-');
const closeAfter = storesClosedAfterEach();
let template: ExchangeRecord;
beforeAll(async () => {
  template = await stepRecord(codexSession(1)[0]);
});

async function stored(
  records: ExchangeRecord[],
  opts: Pick<StoreOptions, 'matchCap' | 'walkRows' | 'fewRows'> = {},
): Promise<{ store: Store; oracle: Oracle }> {
  const store = closeAfter(Store.open({ home: homes(), log, ...opts }));
  const oracle = new Oracle();
  for (const r of records) {
    await store.append(r);
    oracle.add(r);
  }
  return { store, oracle };
}

/** What a page says of `n` matches: exact, or with a search past the cap, the cap and the flag. */
const countOf = (q: ListQuery, n: number, cap: number) =>
  q.q && n > cap ? { matched: cap, matchedCapped: true } : { matched: n, matchedCapped: false };

/**
 * Every page of a query, following its cursor; checks each page's counts on the way: `n` exactly,
 * or with a search past `cap`, the cap and the flag (a page whose walk gave up gathered every
 * match, so it may count exactly all the same).
 */
function allPages(store: Store, q: ListQuery, n: number, cap = 1000): string[] {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = store.list({ ...q, cursor });
    expect([countOf(q, n, cap), { matched: n, matchedCapped: false }]).toContainEqual({
      matched: page.matched,
      matchedCapped: page.matchedCapped,
    });
    ids.push(...page.items.map((s) => s.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
  throw new Error('did not reach the last page');
}

/** Search needles: fragments inside words, across words, Chinese runs, short ones that scan, and misses. */
const needle = fc.oneof(
  fc
    .constantFrom(...WORDS)
    .chain((w) =>
      fc
        .tuple(fc.nat(w.length), fc.integer({ min: 1, max: w.length }))
        .map(([a, n]) => [...w].slice(Math.min(a, w.length - 1), Math.min(a, w.length - 1) + n).join('')),
    ),
  fc.constantFrom('ser tok', 'TOKENIZER', '据库', '迁移', 'x', 'ab', 'zzz', 'exec_command', 'plato', 'gpt-5-co', '*', 'a[b'),
);

const filters = {
  session: fc.constantFrom('s-a', 's-b', ''),
  thread: fc.constantFrom('t-1', 't-2'),
  agent: fc.constantFrom('Plato', 'worker'),
  status: fc.constantFrom('completed', 'failed', 'aborted'),
  kind: fc.constantFrom('model', 'other', 'turn', 'prewarm'),
  model: fc.constantFrom('gpt-5-codex', 'gpt-5', 'gpt-5-mini'),
  transport: fc.constantFrom('http', 'websocket'),
  verdict: fc.constantFrom('hit', 'miss', 'cold'),
  source: fc.constantFrom('captured', 'rollout'),
  minCost: fc.constantFrom(0, 1, 2.5),
  minInput: fc.constantFrom(0, 5000, 15000),
  miss: fc.constant(true),
  since: fc.integer({ min: 0, max: 3 }).map((d) => Date.UTC(2026, 10, 28, 20) + d * 86_400_000),
  until: fc.integer({ min: 1, max: 6 }).map((d) => Date.UTC(2026, 10, 28, 20) + d * 43_200_000),
};
type FilterName = keyof typeof filters;

/** A query of a few filters (more would rarely match anything), maybe a search, a sort and a page size. */
const query = fc
  .record({
    names: fc.subarray(Object.keys(filters) as FilterName[], { maxLength: 3 }),
    q: fc.option(needle, { nil: undefined, freq: 2 }),
    sort: fc.option(fc.constantFrom(...SORTS), { nil: undefined, freq: 6 }),
    order: fc.constantFrom('asc' as const, 'desc' as const),
    limit: fc.integer({ min: 1, max: 7 }),
  })
  .chain(({ names, ...rest }) =>
    fc
      .record(Object.fromEntries(names.map((n) => [n, filters[n]])) as Record<FilterName, fc.Arbitrary<never>>)
      .map((f): ListQuery => ({ ...f, ...rest, ...(rest.q === undefined ? {} : { q: rest.q }) })),
  );

describe('store queries against a brute-force scan of the same records (property)', () => {
  it('filters, searches and sorts like the scan, pages stably through any sort, and counts up to the match cap', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(exchangeSpec, { minLength: 1, maxLength: 25 }),
        fc.array(query, { minLength: 1, maxLength: 8 }),
        // Small caps put searches past the cap (the page then walks the order, checking each row);
        // small windows make the walk give up and gather every match; filters leaving "few" rows
        // are searched row by row, others from the text index.
        fc.constantFrom(1, 2, 4, 1000),
        fc.constantFrom(1, 3, 10_000),
        fc.constantFrom(0, 5, 2000),
        async (specs, queries, cap, walkRows, fewRows) => {
          const { store, oracle } = await stored(buildRecords(template, specs), { matchCap: cap, walkRows, fewRows });
          for (const q of queries) {
            const want = oracle.list(q);
            expect(allPages(store, q, want.length, cap), JSON.stringify(q)).toEqual(want);
            expect(store.list(q).stored).toBe(specs.length);
          }
          store.close();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('pages the default order (newest id first) by `before` as 0.1.0 did', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(exchangeSpec, { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 6 }), async (specs, limit) => {
        const { store, oracle } = await stored(buildRecords(template, specs));
        const ids: string[] = [];
        let before: string | undefined;
        for (;;) {
          const page = store.list({ limit, before });
          ids.push(...page.items.map((s) => s.id));
          if (!page.nextBefore) break;
          before = page.nextBefore;
        }
        expect(ids).toEqual(oracle.list({}));
        store.close();
      }),
      { numRuns: 30 },
    );
  });
  it('agrees with the protocol matcher and order the panel uses for live exchanges', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(exchangeSpec, { minLength: 1, maxLength: 25 }),
        fc.array(query, { minLength: 1, maxLength: 8 }),
        async (specs, queries) => {
          const { store } = await stored(buildRecords(template, specs));
          const all = store.list({ limit: 1000 }).items;
          for (const q of queries) {
            const stored = allPages(store, q, store.list(q).matched);
            const matched = all.filter((s) => matchesQuery(s, q));
            const ordered = [...matched].sort((a: ExchangeSummary, b: ExchangeSummary) =>
              sortsBefore(a, b, q.sort, q.order) ? -1 : sortsBefore(b, a, q.sort, q.order) ? 1 : 0,
            );
            // The store also searches an exchange's items, which a summary does not carry: with a
            // search, what the summary matches is a part of what the store finds, in the same order.
            if (q.q)
              expect(
                ordered.map((s) => s.id),
                JSON.stringify(q),
              ).toEqual(stored.filter((id) => matched.some((s) => s.id === id)));
            else
              expect(
                ordered.map((s) => s.id),
                JSON.stringify(q),
              ).toEqual(stored);
          }
          store.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});
