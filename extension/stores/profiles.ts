/** Profiles (where the companion forwards Codex's requests): the active one from the feed, the list and switching over REST. */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { ProfilePublic } from '../../companion/protocol';
import { useSettingsStore } from './settings';

export const useProfilesStore = defineStore('profiles', () => {
  const settings = useSettingsStore();
  const active = shallowRef<ProfilePublic | null>(null);
  const list = shallowRef<ProfilePublic[]>([]);
  const loading = ref(false);
  const switching = ref<string | null>(null);
  const error = ref<string | null>(null);

  function applyActive(p: ProfilePublic): void {
    active.value = p;
  }

  async function load(): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      const r = await settings.api.profiles();
      list.value = r.profiles;
      active.value = r.profiles.find((p) => p.id === r.activeId) ?? active.value;
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err);
    } finally {
      loading.value = false;
    }
  }

  /** Takes effect from Codex's next turn (a turn never mixes upstreams). */
  async function activate(id: string): Promise<void> {
    switching.value = id;
    error.value = null;
    try {
      applyActive(await settings.api.activateProfile(id));
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err);
    } finally {
      switching.value = null;
    }
  }

  return { active, list, loading, switching, error, applyActive, load, activate };
});
