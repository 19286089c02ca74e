/** An element's content width, followed with a ResizeObserver: layouts that change with the dock, not the window. */
import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue';

/** 0 until measured, and where nothing is laid out (a test DOM): callers treat 0 as "wide". */
export function useWidth(el: Ref<HTMLElement | null>): Ref<number> {
  const width = ref(0);
  let observer: ResizeObserver | null = null;
  onMounted(() => {
    if (!el.value) return;
    width.value = el.value.clientWidth;
    if (typeof ResizeObserver === 'undefined') return;
    observer = new ResizeObserver((entries) => {
      for (const e of entries) width.value = e.contentRect.width;
    });
    observer.observe(el.value);
  });
  onBeforeUnmount(() => observer?.disconnect());
  return width;
}
