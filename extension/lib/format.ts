/**
 * Number, money, percentage, time and size formatting for dense views, through `Intl` in the
 * page's language (lib/i18n.ts `activeLocale`); the words around the numbers (units, "in …",
 * "… ago", "unknown") come from the string layer. Unknown is shown as unknown, never as 0.
 */
import { activeLocale, tr } from './i18n';

export const UNKNOWN = '—';

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function numberFormat(options: Intl.NumberFormatOptions, locale = activeLocale()): Intl.NumberFormat {
  const key = `n|${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key) as Intl.NumberFormat | undefined;
  if (!f) cache.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}
function dateFormat(options: Intl.DateTimeFormatOptions, locale = activeLocale()): Intl.DateTimeFormat {
  const key = `d|${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) cache.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}

const known = (n: number | null | undefined): n is number => n !== null && n !== undefined && Number.isFinite(n);

/** `12,345` (`12.345` in German); null/undefined → `—`. */
export function fmtInt(n: number | null | undefined, unknown = UNKNOWN): string {
  return known(n) ? numberFormat({ maximumFractionDigits: 0 }).format(n) : unknown;
}

/** A plain number with up to `digits` decimals, in the page's digits and separators. */
export function fmtNumber(n: number, digits = 2): string {
  return numberFormat({ maximumFractionDigits: digits }).format(n);
}

/** `$1.23`, `$0.0042` (USD in the page's notation); null → unknown (an unpriced model is not free). */
export function fmtUsd(n: number | null | undefined, unknown = tr('format.unknown')): string {
  if (!known(n)) return unknown;
  const digits = n !== 0 && Math.abs(n) < 0.01 ? 4 : 2;
  return numberFormat({ style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
}

/** USD per 1M tokens, as price tables show it. */
export function fmtRate(perMillion: number | null | undefined): string {
  if (!known(perMillion)) return tr('format.notPublished');
  const usd = numberFormat({ style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 4 }).format(perMillion);
  return tr('format.perMillion', { usd });
}

/** A 0–1 ratio as a percentage; null → unknown. */
export function fmtRatio(r: number | null | undefined, digits = 0, unknown = tr('format.unknown')): string {
  return known(r) ? numberFormat({ style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(r) : unknown;
}

/** A 0–100 value as a percentage. */
export function fmtPercent(p: number | null | undefined, digits = 0, unknown = tr('format.unknown')): string {
  return known(p) ? fmtRatio(p / 100, digits) : unknown;
}

/** `850 ms`, `2.3 s`, `4 m 05 s`, `2 h 10 m`, `3 d 4 h`: the unit words are the locale's. */
export function fmtDuration(ms: number | null | undefined, unknown = UNKNOWN): string {
  if (!known(ms) || ms < 0) return unknown;
  const two = (n: number) => numberFormat({ minimumIntegerDigits: 2, useGrouping: false }).format(n);
  const int = (n: number) => numberFormat({ maximumFractionDigits: 0 }).format(n);
  if (ms < 1000) return tr('format.ms', { n: int(Math.round(ms)) });
  if (ms < 60_000) return tr('format.s', { n: numberFormat({ minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(ms / 1000) });
  const s = Math.round(ms / 1000);
  if (s < 3600) return tr('format.minSec', { m: int(Math.floor(s / 60)), s: two(s % 60) });
  if (s < 48 * 3600) return tr('format.hourMin', { h: int(Math.floor(s / 3600)), m: two(Math.floor((s % 3600) / 60)) });
  return tr('format.dayHour', { d: int(Math.floor(s / 86400)), h: int(Math.floor((s % 86400) / 3600)) });
}

/** A time of day in local time, 24-hour: `14:03` (`minutes`), `14:03:07`, or `14:03:07.412` (the list's time column). */
export function fmtTime(epochMs: number, precision: 'minutes' | 'seconds' | 'millis' = 'millis'): string {
  return dateFormat({
    hour: '2-digit',
    minute: '2-digit',
    ...(precision === 'minutes' ? {} : { second: '2-digit' }),
    ...(precision === 'millis' ? { fractionalSecondDigits: 3 } : {}),
    hourCycle: 'h23',
  }).format(epochMs);
}

/** `14:03:07.412` in local time: the list's time column. */
export function fmtClock(epochMs: number): string {
  return fmtTime(epochMs, 'millis');
}

/** A date and time of day in local time, as the page's language writes them (`11/29/2026, 14:03`). */
export function fmtDateTime(epochMs: number): string {
  return dateFormat({ year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    epochMs,
  );
}

/** `in 2 h 10 m` / `5 m ago` relative to `now`. */
export function fmtRelative(epochMs: number, now: number = Date.now()): string {
  const d = epochMs - now;
  const duration = fmtDuration(Math.abs(d));
  return d >= 0 ? tr('format.inDuration', { duration }) : tr('format.durationAgo', { duration });
}

/** `1.2 kB`, `3.4 MB`. */
export function fmtBytes(n: number | null | undefined, unknown = UNKNOWN): string {
  if (!known(n)) return unknown;
  const one = (x: number) => numberFormat({ minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
  if (n < 1000) return tr('format.bytes', { n: fmtInt(n) });
  if (n < 1_000_000) return tr('format.kB', { n: one(n / 1000) });
  return tr('format.MB', { n: one(n / 1_000_000) });
}

/**
 * Last 8 characters of an id, for dense columns; the full id goes in the title. The tail, not the
 * head: Codex's ids are UUIDv7, whose first characters are a timestamp shared by a whole session.
 */
export function shortId(id: string | null | undefined): string {
  return id ? id.slice(-8) : UNKNOWN;
}

/**
 * A roll-up's cost as text: the priced subtotal, or "unknown" when the companion found none of it
 * priced, and whether it is a lower bound (some exchanges unpriced). The status is the companion's
 * (`UsageRollup.costStatus`); only a roll-up of no exchanges at all costs $0.
 */
export function rollupCost(r: { costUsd: number; costStatus: 'priced' | 'partial' | 'unknown' }): { text: string; partial: boolean } {
  if (r.costStatus === 'unknown') return { text: tr('format.unknown'), partial: false };
  return { text: fmtUsd(r.costUsd), partial: r.costStatus === 'partial' };
}
