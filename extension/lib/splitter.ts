/** A draggable divider between the list and the detail pane; the detail keeps its width as a share of the panel. */
import { ref } from 'vue';

export function useSplitter(initialShare = 0.55, min = 0.25, max = 0.8) {
  const share = ref(initialShare);

  function start(e: PointerEvent): void {
    const container = (e.currentTarget as HTMLElement | null)?.parentElement;
    if (!container) return;
    const rect = container.getBoundingClientRect();
    const move = (ev: PointerEvent) => {
      // The detail pane sits at the inline end: the right, or the left when the page reads right to left.
      const rtl = getComputedStyle(container).direction === 'rtl';
      const detailWidth = rtl ? ev.clientX - rect.left : rect.right - ev.clientX;
      share.value = Math.min(max, Math.max(min, detailWidth / rect.width));
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    e.preventDefault();
  }

  return { share, start };
}
