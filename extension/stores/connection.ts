/** Connection to the companion: reachable or not, and its version. */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { companionBase } from '@/lib/companion-url';

export type ConnectionState = 'checking' | 'connected' | 'offline';

export const useConnectionStore = defineStore('connection', () => {
  const state = ref<ConnectionState>('checking');
  const version = ref<string | null>(null);
  const detail = ref<string | null>(null);

  async function check(base = companionBase()): Promise<void> {
    state.value = 'checking';
    try {
      const res = await fetch(`${base}/api/health`);
      const body = (await res.json()) as { ok?: boolean; version?: string };
      if (!res.ok || !body.ok) throw new Error(`HTTP ${res.status}`);
      state.value = 'connected';
      version.value = body.version ?? null;
      detail.value = null;
    } catch (err) {
      state.value = 'offline';
      version.value = null;
      detail.value = `No companion at ${base}. Start it with \`npx codex-devtools\`. (${err instanceof Error ? err.message : String(err)})`;
    }
  }

  return { state, version, detail, check };
});
