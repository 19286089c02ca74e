/**
 * Settings shared by every extension page (port, pairing token, doc language), mirrored from
 * `storage.local` so a pairing made on the options page reaches open panels at once. Also hands
 * out the REST client bound to the current pairing.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref } from 'vue';
import { DEFAULT_COMPANION_PORT, httpBase, liveUrl } from '@/lib/companion-url';
import type { Pairing } from '@/lib/pairing';
import { createCompanionApi } from '@/lib/rest';
import { readSettings, watchSettings, writeSettings, type StoredSettings } from '@/lib/settings-storage';

export const useSettingsStore = defineStore('settings', () => {
  const port = ref(DEFAULT_COMPANION_PORT);
  const token = ref<string | null>(null);
  const docLanguage = ref('auto');
  const loaded = ref(false);
  /** `?port=` on the page (tests, development): wins over the stored port for this page only. */
  const portOverride = ref<number | null>(null);
  let unwatch: (() => void) | null = null;

  const effectivePort = computed(() => portOverride.value ?? port.value);
  const paired = computed(() => token.value !== null);
  const base = computed(() => httpBase(effectivePort.value));
  const feedUrl = computed(() => liveUrl(effectivePort.value));

  const api = markRaw(createCompanionApi(() => ({ port: effectivePort.value, token: token.value })));

  function applyStored(s: StoredSettings): void {
    port.value = s.port;
    token.value = s.token;
    docLanguage.value = s.docLanguage;
  }

  /** Reads storage once and follows later changes made by other pages. */
  async function load(options: { portOverride?: number | null } = {}): Promise<void> {
    portOverride.value = options.portOverride ?? null;
    applyStored(await readSettings());
    unwatch ??= watchSettings(applyStored);
    loaded.value = true;
  }

  async function pair(p: Pairing): Promise<void> {
    applyStored(await writeSettings({ port: p.port, token: p.token }));
  }

  async function setDocLanguage(lang: string): Promise<void> {
    applyStored(await writeSettings({ docLanguage: lang }));
  }

  async function unpair(): Promise<void> {
    applyStored(await writeSettings({ token: null }));
  }

  return { port, token, docLanguage, loaded, portOverride, effectivePort, paired, base, feedUrl, api, load, pair, setDocLanguage, unpair };
});
