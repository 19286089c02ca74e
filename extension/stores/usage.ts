/** Token and cost totals (today and the latest session, as the companion counts them) and rate limits, from the feed. */
import { defineStore } from 'pinia';
import { computed, shallowRef } from 'vue';
import type { LiveUsage, RateLimits } from '../../companion/protocol';
import { highestUsedPercent } from '@/lib/rate-limit-view';

export const useUsageStore = defineStore('usage', () => {
  const live = shallowRef<LiveUsage | null>(null);
  const rateLimits = shallowRef<RateLimits | null>(null);

  const today = computed(() => live.value?.today ?? null);
  const session = computed(() => live.value?.session ?? null);
  // Read when the rate limits change; the gauges themselves re-check staleness on their clock.
  const highestLimit = computed(() => highestUsedPercent(rateLimits.value, Date.now()));

  function applyUsage(u: LiveUsage): void {
    live.value = u;
  }

  /** Null until the companion has seen rate-limit headers: shown as "no limits reported yet", not as 0 %. */
  function applyRateLimits(r: RateLimits | null): void {
    rateLimits.value = r;
  }

  return { live, rateLimits, today, session, highestLimit, applyUsage, applyRateLimits };
});
