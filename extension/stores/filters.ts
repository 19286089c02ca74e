/** The exchange list's filters; views change them only through these actions. */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ExchangeStatus } from '../../companion/protocol';
import { EMPTY_FILTER, type AgentFilter, type ExchangeFilter, type KindFilter } from '@/lib/exchange-filter';

export const useFiltersStore = defineStore('filters', () => {
  const filter = ref<ExchangeFilter>({ ...EMPTY_FILTER });

  const set = (patch: Partial<ExchangeFilter>) => (filter.value = { ...filter.value, ...patch });

  return {
    filter,
    setText: (text: string) => set({ text }),
    setStatus: (status: ExchangeStatus | null) => set({ status }),
    setKind: (kind: KindFilter | null) => set({ kind }),
    setAgent: (agent: AgentFilter | null) => set({ agent }),
    setSession: (session: string | null) => set({ session, thread: null }),
    /** Shows one thread (from the Sessions view), within its session. */
    showThread: (session: string | null, thread: string) => set({ session, thread }),
    clearThread: () => set({ thread: null }),
    reset: () => (filter.value = { ...EMPTY_FILTER }),
  };
});
