/** Capture state (paused, errors so far, the last one, responses streaming now) from the feed, and pausing or resuming it over REST. */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { CaptureState } from '../../companion/protocol';
import { useSettingsStore } from './settings';

export const useCaptureStore = defineStore('capture', () => {
  const settings = useSettingsStore();
  const state = shallowRef<CaptureState | null>(null);
  const busy = ref(false);
  const error = ref<string | null>(null);
  /** Responses streaming now; null until a snapshot said. */
  const streaming = ref<number | null>(null);

  function applyCapture(s: CaptureState): void {
    state.value = s;
  }

  function applyActivity(n: number): void {
    streaming.value = n;
  }

  /** Forwarding never stops; pausing only stops recording. */
  async function setPaused(paused: boolean): Promise<void> {
    busy.value = true;
    error.value = null;
    try {
      applyCapture(await settings.api.setCapturePaused(paused));
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err);
    } finally {
      busy.value = false;
    }
  }

  return { state, busy, error, streaming, applyCapture, applyActivity, setPaused };
});
