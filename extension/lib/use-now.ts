/** A clock that ticks while a component is mounted, for "retrying in 3 s" and elapsed times of streaming rows. */
import { onBeforeUnmount, onMounted, ref } from 'vue';

export function useNow(intervalMs = 1000) {
  const now = ref(Date.now());
  let timer: ReturnType<typeof setInterval> | null = null;
  onMounted(() => (timer = setInterval(() => (now.value = Date.now()), intervalMs)));
  onBeforeUnmount(() => timer && clearInterval(timer));
  return now;
}
