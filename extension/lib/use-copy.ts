/** Copying to the clipboard with a confirmation: "Copied" (or why not) shows for a moment, as DevTools does. */
import { onBeforeUnmount, ref } from 'vue';

/** How long the confirmation stays. */
export const COPIED_MS = 1500;

export function useCopy() {
  const state = ref<'idle' | 'copied' | 'failed'>('idle');
  let timer: ReturnType<typeof setTimeout> | null = null;
  const show = (s: 'copied' | 'failed') => {
    state.value = s;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => (state.value = 'idle'), COPIED_MS);
  };
  /** `text` may be a promise (a command the companion builds): the confirmation waits for it. */
  async function copy(text: string | Promise<string>): Promise<void> {
    try {
      await navigator.clipboard.writeText(await text);
      show('copied');
    } catch (err) {
      // The clipboard needs focus and permission; say it failed rather than pretend.
      console.warn(`codex-devtools: could not copy (${err instanceof Error ? err.message : String(err)})`);
      show('failed');
    }
  }
  onBeforeUnmount(() => timer && clearTimeout(timer));
  return { state, copy };
}
