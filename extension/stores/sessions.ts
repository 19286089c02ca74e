/** Sessions with their thread trees, totals and cache reports (`GET /api/sessions`), reloaded when new exchanges land. */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { SessionReport } from '../../companion/protocol';
import { useSettingsStore } from './settings';

export const useSessionsStore = defineStore('sessions', () => {
  const settings = useSettingsStore();
  const sessions = shallowRef<SessionReport[]>([]);
  const loading = ref(false);
  const error = ref<string | null>(null);
  const loadedAt = ref<number | null>(null);
  /** New exchanges arrived since the last load. */
  const stale = ref(true);
  const selectedId = ref<string | null>(null);

  const selected = computed(() => sessions.value.find((s) => s.sessionId === selectedId.value) ?? sessions.value[0] ?? null);

  function markStale(): void {
    stale.value = true;
  }

  async function load(): Promise<void> {
    if (loading.value) return;
    loading.value = true;
    error.value = null;
    stale.value = false;
    try {
      sessions.value = (await settings.api.sessions()).sessions;
      loadedAt.value = Date.now();
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err);
    } finally {
      loading.value = false;
    }
  }

  function select(id: string | null): void {
    selectedId.value = id;
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

  return { sessions, loading, error, loadedAt, stale, selectedId, selected, markStale, load, select, remove };
});
