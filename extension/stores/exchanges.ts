/**
 * The exchange list: the snapshot, then live summaries appended in O(1); progress of streaming
 * exchanges; a memory cap with older pages loaded over REST (`before` cursor) on demand. Under a
 * filter or sort the list is the store's answer instead, paged by cursor, with live exchanges
 * placed in it or counted (lib/query-results.ts).
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowReactive, shallowRef, watch } from 'vue';
import type { ExchangeSummary, LivePreview, ServerMessage } from '../../companion/protocol';
import { ExchangeList } from '@/lib/exchange-list';
import type { ListQuery } from '@/lib/exchange-filter';
import { QueryResults } from '@/lib/query-results';
import { useFiltersStore } from './filters';
import { useSettingsStore } from './settings';

type ProgressMessage = Extract<ServerMessage, { type: 'exchange/progress' }>;
export type Progress = Pick<ProgressMessage, 'events' | 'outputChars' | 'estimatedOutputTokens'> & { preview: LivePreview | null };

/** Enough for hours of heavy use; beyond it the oldest leave memory and stay one "load older" away. */
export const MAX_IN_MEMORY = 5000;
export const PAGE_SIZE = 200;

export const useExchangesStore = defineStore('exchanges', () => {
  const settings = useSettingsStore();
  const filters = useFiltersStore();
  const list = markRaw(new ExchangeList(MAX_IN_MEMORY));
  /** Bumped on every change to `list`, which is not reactive itself (thousands of proxied rows would be slow). */
  const version = ref(0);
  const progress = shallowReactive(new Map<string, Progress>());
  /** Null: not known yet (a page has not come back empty). */
  const hasOlder = ref<boolean | null>(null);
  const loadingOlder = ref(false);
  const olderError = ref<string | null>(null);
  /** Dropped from memory because of the cap. */
  const evicted = ref(0);

  /** The store's answer to the current filter or sort; null while the list is the live feed. */
  const results = shallowRef<QueryResults | null>(null);
  const queryLoading = ref(false);
  const queryError = ref<string | null>(null);
  /** Exchanges in the store, from its last answer, plus the live ones since; null: not known. */
  const storedBase = ref<number | null>(null);
  let liveSinceStored = 0;
  /** Snapshots taken: the status line asks the store's count after each. */
  const snapshots = ref(0);
  let queryRun = 0;

  /**
   * "Clear", as in the Network panel: rows of the live list that started up to here are hidden,
   * history stays stored (a search or filter still finds it, as do Sessions and a reload);
   * exchanges that start later show. Null: nothing cleared.
   */
  const clearedThrough = ref<{ startedAt: number; id: string } | null>(null);
  const count = computed(() => (version.value, list.size));
  const all = computed(() => (version.value, list.newestFirst()));
  const visible = computed(() => {
    void version.value;
    if (results.value) return [...results.value.items];
    const since = clearedThrough.value;
    if (since === null) return all.value;
    // In the list's own order (start, then id), so an exchange started in the same millisecond still shows.
    return all.value.filter((s) => s.startedAt > since.startedAt || (s.startedAt === since.startedAt && s.id > since.id));
  });
  /** How many exchanges the list stands for (all of them, or those matching), and how many are stored. */
  const matched = computed(() => (version.value, results.value ? results.value.matchedCount : storedTotal()));
  /** `matched` is a lower bound ("1,000+"): the store counted a search only up to its cap. */
  const matchedCapped = computed(() => (version.value, results.value?.matchedCapped ?? false));
  const stored = computed(() => (version.value, results.value ? results.value.storedCount : storedTotal()));
  /** Live exchanges since the answer that do not match the query: counted, not shown. */
  const newHidden = computed(() => (version.value, results.value?.hiddenLive.size ?? 0));
  const newShown = computed(() => (version.value, results.value?.shownLive.size ?? 0));

  function storedTotal(): number | null {
    return storedBase.value === null ? null : storedBase.value + liveSinceStored;
  }

  function get(id: string): ExchangeSummary | undefined {
    void version.value; // reactive read: callers re-run when the list changes
    return list.get(id) ?? results.value?.get(id);
  }

  /** Asks the store for the first page of `query` (none: back to the live feed). */
  async function runQuery(query: ListQuery | null): Promise<void> {
    const mine = ++queryRun;
    queryError.value = null;
    if (!query) {
      results.value = null;
      queryLoading.value = false;
      version.value++;
      return;
    }
    queryLoading.value = true;
    try {
      const page = await settings.api.exchanges({ ...query, limit: PAGE_SIZE });
      if (mine !== queryRun) return;
      const r = markRaw(new QueryResults(query));
      r.reset(page);
      results.value = r;
    } catch (err) {
      if (mine !== queryRun) return;
      queryError.value = err instanceof Error ? err.message : String(err);
      results.value = markRaw(new QueryResults(query));
    } finally {
      if (mine === queryRun) queryLoading.value = false;
      version.value++;
    }
  }

  /** The count of stored exchanges for the unfiltered list's status line. */
  async function refreshStored(): Promise<void> {
    try {
      const page = await settings.api.exchanges({ limit: 1 });
      storedBase.value = page.stored;
      liveSinceStored = 0;
      version.value++;
    } catch {
      storedBase.value = null; // the status line then counts what is in memory
    }
  }

  watch(
    () => filters.query,
    (q) => void runQuery(filters.active ? q : null),
    { deep: true },
  );

  function changed(): void {
    evicted.value += list.trim();
    version.value++;
  }

  function applySnapshot(items: ExchangeSummary[], { keepInFlight }: { keepInFlight: boolean }): void {
    // On the same socket, exchanges still streaming are not in the store (or the snapshot) yet: keep them.
    const inFlight = keepInFlight ? list.newestFirst().filter((s) => s.status === 'streaming' && !items.some((i) => i.id === s.id)) : [];
    list.replaceAll(items);
    for (const s of inFlight) list.upsert(s);
    for (const id of [...progress.keys()]) if (!list.get(id) || list.get(id)?.status !== 'streaming') progress.delete(id);
    hasOlder.value = items.length > 0 ? null : false;
    olderError.value = null;
    changed();
    snapshots.value++;
    // A snapshot follows a reset or a resync: history may have changed under the query too.
    if (results.value) void runQuery(results.value.query);
  }

  function applySummary(s: ExchangeSummary, opts: { addIfMissing?: boolean } = {}): void {
    const outcome = list.upsert(s, opts);
    if (outcome === 'ignored' && !results.value) return;
    if (outcome === 'added') liveSinceStored++;
    results.value?.live(s, outcome === 'added');
    if (s.status !== 'streaming') progress.delete(s.id);
    changed();
  }

  function applyProgress(p: Pick<ProgressMessage, 'id' | 'events' | 'outputChars' | 'estimatedOutputTokens' | 'preview'>): void {
    if (list.get(p.id)?.status !== 'streaming') return;
    progress.set(p.id, {
      events: p.events,
      outputChars: p.outputChars,
      estimatedOutputTokens: p.estimatedOutputTokens,
      preview: p.preview ?? null,
    });
  }

  /** The next page of the store's answer, after the loaded rows in its order. */
  async function loadMoreResults(r: QueryResults): Promise<void> {
    if (loadingOlder.value || r.nextCursor === null) return;
    loadingOlder.value = true;
    olderError.value = null;
    try {
      const page = await settings.api.exchanges({ ...r.query, limit: PAGE_SIZE, cursor: r.nextCursor });
      if (results.value === r) r.append(page);
      version.value++;
    } catch (err) {
      olderError.value = err instanceof Error ? err.message : String(err);
    } finally {
      loadingOlder.value = false;
    }
  }

  /** More rows at the bottom: the next page of the answer, or older exchanges of the live list. */
  async function loadOlder(): Promise<void> {
    if (results.value) return loadMoreResults(results.value);
    if (loadingOlder.value || hasOlder.value === false) return;
    const oldest = list.oldest();
    loadingOlder.value = true;
    olderError.value = null;
    try {
      const page = await settings.api.exchanges({ limit: PAGE_SIZE, ...(oldest ? { before: oldest.id } : {}) });
      list.prependOlder(page.items);
      hasOlder.value = page.nextBefore !== null;
      version.value++;
    } catch (err) {
      olderError.value = err instanceof Error ? err.message : String(err);
    } finally {
      loadingOlder.value = false;
    }
  }

  /** Hides every row listed now; new exchanges show as they start. */
  function clearView(): void {
    const newest = list.newestFirst()[0];
    if (newest) clearedThrough.value = { startedAt: newest.startedAt, id: newest.id };
  }

  /** Deletes every stored exchange on the companion; the feed then resets and reloads. */
  async function clearHistory(): Promise<void> {
    await settings.api.clearExchanges();
  }

  return {
    version,
    progress,
    hasOlder,
    results,
    snapshots,
    refreshStored,
    queryLoading,
    queryError,
    matched,
    matchedCapped,
    stored,
    newHidden,
    newShown,
    hasMore: computed(() => (version.value, results.value ? results.value.nextCursor !== null : hasOlder.value !== false)),
    loadingOlder,
    olderError,
    evicted,
    count,
    all,
    visible,
    clearedThrough,
    get,
    runQuery,
    applySnapshot,
    applySummary,
    applyProgress,
    loadOlder,
    clearView,
    clearHistory,
  };
});
