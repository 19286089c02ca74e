/** What the toolbar badge says: capture errors first, then rate-limit use at or above 80 %, else nothing. */
import type { CaptureState, RateLimits } from '../../companion/protocol';
import { HIGH_USAGE_PERCENT, highestUsedPercent } from './rate-limit-view';

export interface Badge {
  text: string;
  color: string;
  title: string;
}

export const BADGE_RED = '#d93025';
export const BADGE_AMBER = '#e37400';

export function badgeFor(input: {
  connected: boolean;
  capture: CaptureState | null;
  rateLimits: RateLimits | null;
  /** Epoch milliseconds: a reading whose window has reset since no longer raises the badge. */
  now?: number;
}): Badge {
  const base = 'Codex DevTools';
  if (!input.connected) return { text: '', color: BADGE_RED, title: `${base}: companion offline or not paired` };
  const c = input.capture;
  if (c && c.errors > 0)
    return { text: '!', color: BADGE_RED, title: `${base}: ${c.errors} capture error(s). ${c.lastError ?? ''}`.trim() };
  const used = highestUsedPercent(input.rateLimits, input.now ?? Date.now());
  if (used !== null && used >= HIGH_USAGE_PERCENT)
    return {
      text: `${Math.min(100, Math.round(used))}%`,
      color: used >= 95 ? BADGE_RED : BADGE_AMBER,
      title: `${base}: rate limit ${used.toFixed(0)}% used`,
    };
  if (c?.paused) return { text: 'II', color: BADGE_AMBER, title: `${base}: capture paused (forwarding continues)` };
  return { text: '', color: BADGE_AMBER, title: base };
}
