/**
 * The exchange list: the snapshot, then live summaries appended in O(1); progress of streaming
 * exchanges; a memory cap with older pages loaded over REST (`before` cursor) on demand.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowReactive } from 'vue';
import type { ExchangeSummary, LivePreview, ServerMessage } from '../../companion/protocol';
import { ExchangeList } from '@/lib/exchange-list';
import { filterPredicate, isFilterActive } from '@/lib/exchange-filter';
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

  /**
   * "Clear", as in the Network panel: rows that started up to here are hidden, history stays
   * stored (REST, Sessions, a reload); exchanges that start later show. Null: nothing cleared.
   */
  const clearedThrough = ref<{ startedAt: number; id: string } | null>(null);
  const count = computed(() => (version.value, list.size));
  const all = computed(() => (version.value, list.newestFirst()));
  const visible = computed(() => {
    const since = clearedThrough.value;
    // In the list's own order (start, then id), so an exchange started in the same millisecond still shows.
    const after = (s: ExchangeSummary) =>
      since === null || s.startedAt > since.startedAt || (s.startedAt === since.startedAt && s.id > since.id);
    const rows = since === null ? all.value : all.value.filter(after);
    return isFilterActive(filters.filter) ? rows.filter(filterPredicate(filters.filter)) : rows;
  });
  /** Sessions present in memory, newest first, for the session filter. */
  const sessions = computed(() => {
    const seen = new Map<string, number>();
    for (const s of all.value) if (s.sessionId && !seen.has(s.sessionId)) seen.set(s.sessionId, s.startedAt);
    return [...seen].map(([id, startedAt]) => ({ id, startedAt }));
  });

  function get(id: string): ExchangeSummary | undefined {
    void version.value; // reactive read: callers re-run when the list changes
    return list.get(id);
  }

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
  }

  function applySummary(s: ExchangeSummary, opts: { addIfMissing?: boolean } = {}): void {
    if (list.upsert(s, opts) === 'ignored') return;
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

  async function loadOlder(): Promise<void> {
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
    loadingOlder,
    olderError,
    evicted,
    count,
    all,
    visible,
    clearedThrough,
    sessions,
    get,
    applySnapshot,
    applySummary,
    applyProgress,
    loadOlder,
    clearView,
    clearHistory,
  };
});
