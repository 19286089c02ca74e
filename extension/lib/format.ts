/** Number, money, time and size formatting for dense views. Unknown is shown as unknown, never as 0. */

export const UNKNOWN = '—';

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `12,345`; null/undefined → `—`. */
export function fmtInt(n: number | null | undefined, unknown = UNKNOWN): string {
  return n === null || n === undefined || !Number.isFinite(n) ? unknown : int.format(n);
}

/** `$1.23`, `$0.0042`; null → `unknown` (an unpriced model is not free). */
export function fmtUsd(n: number | null | undefined, unknown = 'unknown'): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return unknown;
  if (n === 0) return '$0.00';
  if (Math.abs(n) < 0.01) return `$${n.toFixed(4)}`;
  return `$${n.toFixed(2)}`;
}

/** USD per 1M tokens, as price tables show it. */
export function fmtRate(perMillion: number | null | undefined): string {
  return perMillion === null || perMillion === undefined ? 'not published' : `$${perMillion} / 1M`;
}

/** A 0–1 ratio as a percentage; null → `unknown`. */
export function fmtRatio(r: number | null | undefined, digits = 0, unknown = 'unknown'): string {
  return r === null || r === undefined || !Number.isFinite(r) ? unknown : `${(r * 100).toFixed(digits)}%`;
}

/** A 0–100 value as a percentage. */
export function fmtPercent(p: number | null | undefined, digits = 0, unknown = 'unknown'): string {
  return p === null || p === undefined || !Number.isFinite(p) ? unknown : `${p.toFixed(digits)}%`;
}

/** `850 ms`, `2.3 s`, `4 m 05 s`, `2 h 10 m`. */
export function fmtDuration(ms: number | null | undefined, unknown = UNKNOWN): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return unknown;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, '0')} s`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} m`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `14:03:07.412` in local time: the list's time column. */
export function fmtClock(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** `2026-11-29 14:03` in local time. */
export function fmtDateTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `in 2 h 10 m` / `5 m ago` relative to `now`. */
export function fmtRelative(epochMs: number, now: number = Date.now()): string {
  const d = epochMs - now;
  const text = fmtDuration(Math.abs(d));
  return d >= 0 ? `in ${text}` : `${text} ago`;
}

/** `1.2 kB`, `3.4 MB`. */
export function fmtBytes(n: number | null | undefined, unknown = UNKNOWN): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return unknown;
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
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
  if (r.costStatus === 'unknown') return { text: 'unknown', partial: false };
  return { text: fmtUsd(r.costUsd), partial: r.costStatus === 'partial' };
}
