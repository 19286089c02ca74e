/** Rate limits as gauges: each window's used %, its length, when it resets, and whether it is near the limit. */
import type { RateLimits, RateLimitWindow } from '../../companion/protocol';

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
}

export interface LimitView {
  limitId: string;
  name: string;
  gauges: GaugeView[];
}

/** `300` → `5 h`, `10080` → `weekly`, `1440` → `daily`. */
export function windowLabel(minutes: number | null): string {
  if (minutes === null) return 'window of unknown length';
  if (minutes === 10080) return 'weekly window';
  if (minutes === 1440) return 'daily window';
  if (minutes % 60 === 0) return `${minutes / 60} h window`;
  return `${minutes} min window`;
}

export const isHigh = (usedPercent: number | null) => usedPercent !== null && usedPercent >= HIGH_USAGE_PERCENT;

function gauge(slot: GaugeView['slot'], w: RateLimitWindow | null): GaugeView | null {
  if (!w) return null;
  return {
    slot,
    label: windowLabel(w.windowMinutes),
    usedPercent: w.usedPercent,
    windowMinutes: w.windowMinutes,
    resetsAt: w.resetsAt === null ? null : w.resetsAt * 1000,
    high: isHigh(w.usedPercent),
  };
}

export function limitViews(r: RateLimits | null): LimitView[] {
  return (r?.codex ?? []).map((l) => ({
    limitId: l.limitId,
    name: l.limitName ?? (l.limitId === 'codex' ? 'Codex' : l.limitId),
    gauges: [gauge('primary', l.primary), gauge('secondary', l.secondary)].filter((g): g is GaugeView => g !== null),
  }));
}

/** The highest used % across all windows, or null when none is known. */
export function highestUsedPercent(r: RateLimits | null): number | null {
  const all = limitViews(r).flatMap((l) => l.gauges.map((g) => g.usedPercent).filter((p): p is number => p !== null));
  return all.length ? Math.max(...all) : null;
}
