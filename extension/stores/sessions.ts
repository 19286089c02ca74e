/**
 * Sessions: the list is the companion's paged, searchable session list (title, working directory,
 * cost, misses, from the store's roll-ups); the chosen session's report (thread tree, turns, cache)
 * is read on its own (`GET /api/sessions/:id/report`), so months of history are never read whole.
 * Both reload when new exchanges land.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { SessionReport, SessionRowWire } from '../../companion/protocol';
import { useSettingsStore } from './settings';

export const SESSION_PAGE = 50;

export const useSessionsStore = defineStore('sessions', () => {
  const settings = useSettingsStore();
  const rows = shallowRef<SessionRowWire[]>([]);
  const nextCursor = ref<string | null>(null);
  const query = ref('');
  const loading = ref(false);
  const error = ref<string | null>(null);
  const loadedAt = ref<number | null>(null);
  /** New exchanges arrived since the last load. */
  const stale = ref(true);
  const selectedId = ref<string | null>(null);
  const report = shallowRef<SessionReport | null>(null);
  const reportError = ref<string | null>(null);
  let reportRun = 0;

  /** The chosen row, or the most recent one. */
  const selectedRow = computed(() => rows.value.find((s) => s.sessionId === selectedId.value) ?? rows.value[0] ?? null);
  /** The report of the chosen row, once it has arrived. */
  const selected = computed(() => (report.value && report.value.sessionId === selectedRow.value?.sessionId ? report.value : null));

  function markStale(): void {
    stale.value = true;
  }

  async function loadReport(): Promise<void> {
    const row = selectedRow.value;
    const mine = ++reportRun;
    reportError.value = null;
    if (!row?.sessionId) {
      report.value = null;
      return;
    }
    try {
      const r = await settings.api.sessionReport(row.sessionId);
      if (mine === reportRun) report.value = r;
    } catch (err) {
      if (mine === reportRun) reportError.value = err instanceof Error ? err.message : String(err);
    }
  }

  /** The first page of the list (for the current search), then the chosen session's report. */
  async function load(): Promise<void> {
    if (loading.value) return;
    loading.value = true;
    error.value = null;
    stale.value = false;
    try {
      const page = await settings.api.sessionList({ limit: SESSION_PAGE, q: query.value || undefined });
      rows.value = page.items;
      nextCursor.value = page.nextCursor;
      loadedAt.value = Date.now();
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err);
    } finally {
      loading.value = false;
    }
    await loadReport();
  }

  async function loadMore(): Promise<void> {
    if (loading.value || !nextCursor.value) return;
    loading.value = true;
    try {
      const page = await settings.api.sessionList({ limit: SESSION_PAGE, q: query.value || undefined, cursor: nextCursor.value });
      rows.value = [...rows.value, ...page.items];
      nextCursor.value = page.nextCursor;
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err);
    } finally {
      loading.value = false;
    }
  }

  function search(text: string): Promise<void> {
    query.value = text;
    return load();
  }

  function select(id: string | null): Promise<void> {
    selectedId.value = id;
    return loadReport();
  }

  async function remove(id: string): Promise<void> {
    try {
      await settings.api.deleteSession(id);
      if (selectedId.value === id) selectedId.value = null;
      await load();
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err);
    }
  }

  return {
    rows,
    nextCursor,
    query,
    loading,
    error,
    loadedAt,
    stale,
    selectedId,
    selectedRow,
    selected,
    reportError,
    markStale,
    load,
    loadMore,
    search,
    select,
    remove,
  };
});
