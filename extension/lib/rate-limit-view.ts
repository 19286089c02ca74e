/**
 * Rate limits as gauges: each window's used %, its length, when it resets, whether it is near the
 * limit, and when it was read. A reading taken before its window reset is stale: it says what was
 * used in a window that is over, so it is marked so and never counts as near the limit.
 */
import type { RateLimits, RateLimitWindow } from '../../companion/protocol';
import { fmtInt } from './format';
import { tr } from './i18n';

/** Users asked to be warned near the limit (openai/codex#30452); 80 % is where the gauges turn. */
export const HIGH_USAGE_PERCENT = 80;

export interface GaugeView {
  /** `primary` or `secondary`. */
  slot: 'primary' | 'secondary';
  /** `5 h window`, `weekly window`, … or `window of unknown length`. */
  label: string;
  usedPercent: number | null;
  windowMinutes: number | null;
  /** Epoch milliseconds. */
  resetsAt: number | null;
  high: boolean;
  /** The window has reset since this value was read. */
  stale: boolean;
}

export interface LimitView {
  limitId: string;
  name: string;
  /** Epoch milliseconds the family was read. */
  observedAt: number;
  gauges: GaugeView[];
}

/** `300` → `5 h`, `10080` → `weekly`, `1440` → `daily`. */
export function windowLabel(minutes: number | null): string {
  if (minutes === null) return tr('limits.unknownLength');
  if (minutes === 10080) return tr('limits.weekly');
  if (minutes === 1440) return tr('limits.daily');
  if (minutes % 60 === 0) return tr('limits.hours', { n: fmtInt(minutes / 60) });
  return tr('limits.minutes', { n: fmtInt(minutes) });
}

export const isHigh = (usedPercent: number | null) => usedPercent !== null && usedPercent >= HIGH_USAGE_PERCENT;

function gauge(slot: GaugeView['slot'], w: RateLimitWindow | null, observedAt: number, now: number): GaugeView | null {
  if (!w) return null;
  const resetsAt = w.resetsAt === null ? null : w.resetsAt * 1000;
  const stale = resetsAt !== null && resetsAt <= now && observedAt < resetsAt;
  return {
    slot,
    label: windowLabel(w.windowMinutes),
    usedPercent: w.usedPercent,
    windowMinutes: w.windowMinutes,
    resetsAt,
    high: !stale && isHigh(w.usedPercent),
    stale,
  };
}

export function limitViews(r: RateLimits | null, now: number): LimitView[] {
  return (r?.codex ?? []).map((l) => {
    const observedAt = l.observedAt ?? r?.observedAt ?? 0;
    return {
      limitId: l.limitId,
      name: l.limitName ?? (l.limitId === 'codex' ? 'Codex' : l.limitId),
      observedAt,
      gauges: [gauge('primary', l.primary, observedAt, now), gauge('secondary', l.secondary, observedAt, now)].filter(
        (g): g is GaugeView => g !== null,
      ),
    };
  });
}

/** The highest used % across the windows that have not reset since they were read, or null when none is known. */
export function highestUsedPercent(r: RateLimits | null, now: number): number | null {
  const all = limitViews(r, now).flatMap((l) =>
    l.gauges
      .filter((g) => !g.stale)
      .map((g) => g.usedPercent)
      .filter((p): p is number => p !== null),
  );
  return all.length ? Math.max(...all) : null;
}
