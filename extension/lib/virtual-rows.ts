/**
 * Fixed-height row virtualisation for the exchange list: only the rows in view (plus a few) are
 * rendered, so thousands of exchanges cost what forty do. Rows have one height, as in the
 * Network panel, which keeps the arithmetic exact and needs no measuring.
 */
import { computed, onBeforeUnmount, onMounted, ref, type Ref } from 'vue';

export interface VirtualRowsOptions {
  count: Ref<number>;
  rowHeight: number;
  container: Ref<HTMLElement | null>;
  /** Rows rendered beyond each edge, so fast scrolling shows no blank rows. */
  overscan?: number;
  /** Before the container is measured (and in DOM-less tests). */
  fallbackHeight?: number;
}

/** The slice of rows to render for a scroll position and viewport height. */
export function visibleRange(scrollTop: number, viewport: number, count: number, rowHeight: number, overscan: number) {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  return { start: first, end: Math.max(first, last) };
}

export function useVirtualRows(opts: VirtualRowsOptions) {
  const scrollTop = ref(0);
  const viewport = ref(opts.fallbackHeight ?? 600);
  const overscan = opts.overscan ?? 8;
  let observer: ResizeObserver | null = null;

  const range = computed(() => visibleRange(scrollTop.value, viewport.value, opts.count.value, opts.rowHeight, overscan));
  const totalHeight = computed(() => opts.count.value * opts.rowHeight);
  const offsetTop = computed(() => range.value.start * opts.rowHeight);
  const rowsInView = computed(() => Math.max(1, Math.floor(viewport.value / opts.rowHeight)));

  function measure(): void {
    const el = opts.container.value;
    if (el && el.clientHeight > 0) viewport.value = el.clientHeight;
  }

  function onScroll(): void {
    const el = opts.container.value;
    if (el) scrollTop.value = el.scrollTop;
  }

  /** Scrolls just enough to show row `index` (keyboard navigation). */
  function ensureVisible(index: number): void {
    const el = opts.container.value;
    if (!el) return;
    const top = index * opts.rowHeight;
    const bottom = top + opts.rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (bottom > el.scrollTop + el.clientHeight) el.scrollTop = bottom - el.clientHeight;
    scrollTop.value = el.scrollTop;
  }

  onMounted(() => {
    measure();
    if (typeof ResizeObserver !== 'undefined' && opts.container.value) {
      observer = new ResizeObserver(measure);
      observer.observe(opts.container.value);
    }
  });
  onBeforeUnmount(() => observer?.disconnect());

  return { range, totalHeight, offsetTop, rowsInView, onScroll, ensureVisible, scrollTop };
}
