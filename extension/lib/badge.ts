/**
 * What the toolbar badge says: that the companion cannot be reached or refused the pairing, then
 * capture errors, then rate-limit use at or above 80 %, then a pause, then that responses are
 * streaming, else nothing.
 */
import type { CaptureState, RateLimits } from '../../companion/protocol';
import type { ConnectionStatus } from '@/stores/connection';
import { fmtInt, fmtPercent } from './format';
import { PRODUCT_NAME, tr } from './i18n';
import { HIGH_USAGE_PERCENT, highestUsedPercent } from './rate-limit-view';

export interface Badge {
  text: string;
  color: string;
  title: string;
}

export const BADGE_RED = '#d93025';
export const BADGE_AMBER = '#e37400';
export const BADGE_GREY = '#5f6368';
export const BADGE_BLUE = '#1a73e8';
/** The activity mark: a dot, as a recording indicator, readable in every locale. */
export const BADGE_STREAMING = '●';

export interface BadgeInput {
  status: ConnectionStatus;
  /** True once a connection was lost or failed, until a snapshot arrives again (retries included). */
  offline: boolean;
  capture: CaptureState | null;
  rateLimits: RateLimits | null;
  /** Responses streaming now; null before the companion said. */
  streaming?: number | null;
  /** Epoch milliseconds: a reading whose window has reset since no longer raises the badge. */
  now?: number;
}

export function badgeFor(input: BadgeInput): Badge {
  const base = PRODUCT_NAME;
  switch (input.status) {
    case 'connected':
      break;
    case 'unpaired':
      return { text: '?', color: BADGE_GREY, title: tr('badge.unpaired', { base }) };
    case 'unauthorized':
      return { text: '!', color: BADGE_RED, title: tr('badge.unauthorized', { base }) };
    case 'mismatch':
      return { text: '!', color: BADGE_RED, title: tr('badge.mismatch', { base }) };
    default:
      // Still connecting for the first time is not "offline"; a retry after a loss is.
      if (input.offline || input.status === 'offline') return { text: 'off', color: BADGE_GREY, title: tr('badge.offline', { base }) };
      return { text: '', color: BADGE_AMBER, title: base };
  }
  const c = input.capture;
  if (c && c.errors > 0)
    return {
      text: '!',
      color: BADGE_RED,
      title: `${tr('badge.captureErrors', { base, n: fmtInt(c.errors) }, c.errors)} ${c.lastError ?? ''}`.trim(),
    };
  const used = highestUsedPercent(input.rateLimits, input.now ?? Date.now());
  if (used !== null && used >= HIGH_USAGE_PERCENT)
    return {
      text: `${Math.min(100, Math.round(used))}%`,
      color: used >= 95 ? BADGE_RED : BADGE_AMBER,
      title: tr('badge.rateLimit', { base, percent: fmtPercent(used) }),
    };
  if (c?.paused) return { text: 'II', color: BADGE_AMBER, title: tr('badge.paused', { base }) };
  const n = input.streaming ?? 0;
  if (n > 0) return { text: BADGE_STREAMING, color: BADGE_BLUE, title: tr('badge.streaming', { base, n: fmtInt(n) }, n) };
  return { text: '', color: BADGE_AMBER, title: base };
}
