/**
 * @module Rate limits from response headers: Codex's `x-codex-*` families (parsed as Codex 0.169
 * parses them, codex-protocol.md §3.4), `codex.rate_limits` WebSocket messages, and the standard
 * `x-ratelimit-*` headers OpenAI sends API-key users.
 */
import type { CodexLimit, RateLimitWindow, RateLimits } from '../protocol/ratelimits';
import type { HeaderPairs } from '../http/headers';
import type { HeaderGet } from './identity';
import { isObj, type Json } from '../lib/json';

const num = (v: string | null): number | null => {
  if (v === null || v.trim() === '') return null;
  const x = Number(v);
  return Number.isFinite(x) ? x : null;
};
const bool = (v: string | null): boolean | null => {
  if (v === null) return null;
  const t = v.trim().toLowerCase();
  return t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : null;
};
const text = (v: string | null): string | null => (v && v.trim() ? v.trim() : null);

function window(get: HeaderGet, prefix: string, which: 'primary' | 'secondary'): RateLimitWindow | null {
  const used = num(get(`${prefix}-${which}-used-percent`));
  if (used === null) return null;
  const minutes = num(get(`${prefix}-${which}-window-minutes`));
  const reset = num(get(`${prefix}-${which}-reset-at`));
  // Codex ignores an all-zero window without a reset time; so do we.
  if (used === 0 && !minutes && reset === null) return null;
  return { usedPercent: used, windowMinutes: minutes, resetsAt: reset };
}

function family(get: HeaderGet, limitId: string): CodexLimit | null {
  const prefix = `x-${limitId.replace(/_/g, '-')}`;
  const primary = window(get, prefix, 'primary');
  const secondary = window(get, prefix, 'secondary');
  if (!primary && !secondary) return null;
  return { limitId, limitName: text(get(`${prefix}-limit-name`)), primary, secondary };
}

/** Parses every rate-limit header family; null when the response carried none. */
export function parseRateLimitHeaders(names: string[], get: HeaderGet, observedAt: number): RateLimits | null {
  const ids = new Set<string>(['codex']);
  for (const name of names) {
    const m = name.toLowerCase().match(/^x-(.+)-primary-used-percent$/);
    if (m) ids.add(m[1].replace(/-/g, '_'));
  }
  const codex = [...ids].map((id) => family(get, id)).filter((f): f is CodexLimit => f !== null);
  const hasCredits = bool(get('x-codex-credits-has-credits'));
  const unlimited = bool(get('x-codex-credits-unlimited'));
  const credits =
    hasCredits !== null || unlimited !== null ? { hasCredits, unlimited, balance: text(get('x-codex-credits-balance')) } : null;
  const api = {
    limitRequests: num(get('x-ratelimit-limit-requests')),
    remainingRequests: num(get('x-ratelimit-remaining-requests')),
    resetRequests: text(get('x-ratelimit-reset-requests')),
    limitTokens: num(get('x-ratelimit-limit-tokens')),
    remainingTokens: num(get('x-ratelimit-remaining-tokens')),
    resetTokens: text(get('x-ratelimit-reset-tokens')),
  };
  const hasApi = Object.values(api).some((v) => v !== null);
  const promoMessage = text(get('x-codex-promo-message'));
  const reachedType = text(get('x-codex-rate-limit-reached-type'));
  if (codex.length === 0 && !credits && !hasApi && !promoMessage && !reachedType) return null;
  return { observedAt, codex, credits, api: hasApi ? api : null, planType: null, promoMessage, reachedType };
}

/** parseRateLimitHeaders over header pairs (the last of a repeated header counts). */
export function rateLimitsOfHeaders(pairs: HeaderPairs, observedAt: number): RateLimits | null {
  const map = new Map(pairs);
  return parseRateLimitHeaders([...map.keys()], (n) => map.get(n) ?? null, observedAt);
}

const evWindow = (w: unknown): RateLimitWindow | null =>
  isObj(w) && typeof w.used_percent === 'number'
    ? {
        usedPercent: w.used_percent,
        windowMinutes: typeof w.window_minutes === 'number' ? w.window_minutes : null,
        resetsAt: typeof w.reset_at === 'number' ? w.reset_at : null,
      }
    : null;

/** A `codex.rate_limits` WebSocket message (codex-protocol.md §4). */
export function parseRateLimitEvent(data: Json, observedAt: number): RateLimits {
  const rl = isObj(data.rate_limits) ? data.rate_limits : {};
  const c = isObj(data.credits) ? data.credits : null;
  const id =
    typeof data.metered_limit_name === 'string' ? data.metered_limit_name : typeof data.limit_name === 'string' ? data.limit_name : 'codex';
  return {
    observedAt,
    codex: [
      {
        limitId: id.trim().toLowerCase().replace(/-/g, '_'),
        limitName: null,
        primary: evWindow(rl.primary),
        secondary: evWindow(rl.secondary),
      },
    ],
    credits: c
      ? {
          hasCredits: typeof c.has_credits === 'boolean' ? c.has_credits : null,
          unlimited: typeof c.unlimited === 'boolean' ? c.unlimited : null,
          balance: typeof c.balance === 'string' ? c.balance : null,
        }
      : null,
    api: null,
    planType: typeof data.plan_type === 'string' ? data.plan_type : null,
    promoMessage: null,
    reachedType: null,
  };
}
