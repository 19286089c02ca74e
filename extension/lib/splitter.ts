/**
 * A draggable divider between the list and the detail pane; the detail keeps its size as a share
 * of the panel. The divider's `aria-orientation` says the layout: `vertical` when the detail sits
 * beside the list (wide docks), `horizontal` when it sits below (narrow ones).
 */
import { ref } from 'vue';

export function useSplitter(initialShare = 0.55, min = 0.25, max = 0.8) {
  const share = ref(initialShare);

  function start(e: PointerEvent): void {
    const handle = e.currentTarget as HTMLElement | null;
    const container = handle?.parentElement;
    if (!handle || !container) return;
    const rect = container.getBoundingClientRect();
    const below = handle.getAttribute('aria-orientation') === 'horizontal';
    const move = (ev: PointerEvent) => {
      // Beside: the detail pane sits at the inline end, the right, or the left when the page reads right to left.
      const rtl = getComputedStyle(container).direction === 'rtl';
      const size = below ? rect.bottom - ev.clientY : rtl ? ev.clientX - rect.left : rect.right - ev.clientX;
      share.value = Math.min(max, Math.max(min, size / (below ? rect.height : rect.width)));
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
