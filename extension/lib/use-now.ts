/** A clock that ticks while a component is mounted, for "retrying in 3 s" and elapsed times of streaming rows. */
import { onBeforeUnmount, onMounted, ref, watch, type Ref } from 'vue';

/** `active` pauses the clock while it returns false, so nothing re-renders when no time is shown. */
export function useNow(intervalMs = 1000, active: () => boolean = () => true): Ref<number> {
  const now = ref(Date.now());
  let timer: ReturnType<typeof setInterval> | null = null;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  const start = () => {
    if (timer) return;
    now.value = Date.now();
    timer = setInterval(() => (now.value = Date.now()), intervalMs);
  };
  onMounted(() => watch(active, (on) => (on ? start() : stop()), { immediate: true }));
  onBeforeUnmount(stop);
  return now;
}
