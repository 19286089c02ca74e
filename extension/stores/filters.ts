/** The exchange list's filters and sort; views change them only through these actions. */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ExchangeSource, ExchangeStatus, SortKeyName } from '../../companion/protocol';
import { EMPTY_FILTER, isQueryActive, listQuery, type ExchangeFilter, type KindFilter, type ListSort } from '@/lib/exchange-filter';

export const useFiltersStore = defineStore('filters', () => {
  const filter = ref<ExchangeFilter>({ ...EMPTY_FILTER });
  const sort = ref<ListSort | null>(null);
  /** What the store is asked; recomputed, not stored, so it never drifts from the filters. */
  const query = computed(() => listQuery(filter.value, sort.value));
  const active = computed(() => isQueryActive(query.value));

  const set = (patch: Partial<ExchangeFilter>) => (filter.value = { ...filter.value, ...patch });

  /**
   * A header click: largest (or newest) first, then smallest first, then back to the live order.
   * Time's first click is oldest first, since newest first is the live order itself.
   */
  function toggleSort(key: SortKeyName): void {
    const cur = sort.value;
    const first: ListSort['order'] = key === 'time' ? 'asc' : 'desc';
    if (!cur || cur.key !== key) sort.value = { key, order: first };
    else if (cur.order === first && key !== 'time') sort.value = { key, order: first === 'desc' ? 'asc' : 'desc' };
    else sort.value = null;
  }

  return {
    filter,
    sort,
    query,
    active,
    setText: (text: string) => set({ text }),
    setStatus: (status: ExchangeStatus | null) => set({ status }),
    setKind: (kind: KindFilter | null) => set({ kind }),
    setAgent: (agent: string | null) => set({ agent }),
    setSession: (session: string | null) => set({ session, thread: null }),
    setMiss: (miss: boolean) => set({ miss }),
    setMinCost: (minCost: number | null) => set({ minCost }),
    setModel: (model: string | null) => set({ model }),
    setSource: (source: ExchangeSource | null) => set({ source }),
    /** Shows one thread (from the Sessions view), within its session. */
    showThread: (session: string | null, thread: string) => set({ session, thread }),
    clearThread: () => set({ thread: null }),
    toggleSort,
    /**
     * A session's exchanges by what they cost, or its cache misses by what they cost: the list a
     * triage view hands over to, with the exchange the user picked in it.
     */
    showByCost: (session: string | null, misses: boolean) => {
      filter.value = { ...EMPTY_FILTER, session, miss: misses };
      sort.value = { key: misses ? 'missCost' : 'cost', order: 'desc' };
    },
    reset: () => {
      filter.value = { ...EMPTY_FILTER };
      sort.value = null;
    },
  };
});
