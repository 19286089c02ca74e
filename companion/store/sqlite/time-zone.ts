/**
 * @module Local days in an IANA time zone, for roll-ups stored in UTC buckets: which day a
 * bucket falls on, and where a day begins and ends. Offsets in the machine's own zone come from
 * Date, which needs none of the locale data Intl loads (lib/local-zone.ts): the live counters'
 * "today" costs no Intl at all.
 */
import { localOffsetAt, localTimeZone } from '../../lib/local-zone';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // en-CA formats dates as YYYY-MM-DD; throws a RangeError on an unknown zone.
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether `timeZone` is a zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The local day (YYYY-MM-DD) of an instant. */
export function localDay(t: number, timeZone: string): string {
  return formatter(timeZone).format(t);
}

const HOUR = 3_600_000;

/**
 * A fast `localDay` for many instants of one zone (formatting a date costs microseconds; a
 * roll-up can hold tens of thousands of buckets): the zone's offset is read once per UTC hour
 * and reused, since offsets change only on the hour or at whole quarter hours within it, and a
 * bucket's day is then arithmetic.
 */
export function dayReader(timeZone: string): (t: number) => string {
  const offsets = new Map<number, number | null>();
  const offsetOf = (hour: number): number | null => {
    let o = offsets.get(hour);
    if (o === undefined) {
      const start = hour * HOUR;
      const a = offsetAt(start, timeZone);
      // An offset change inside the hour: fall back to formatting each instant of it.
      o = a === offsetAt(start + HOUR - 1, timeZone) ? a : null;
      offsets.set(hour, o);
    }
    return o;
  };
  return (t) => {
    const o = offsetOf(Math.floor(t / HOUR));
    return o === null ? localDay(t, timeZone) : new Date(t + o).toISOString().slice(0, 10);
  };
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/** Local time minus UTC at instant `t`, in ms (whole minutes): from Date in the machine's own zone. */
function offsetAt(t: number, timeZone: string): number {
  return timeZone === localTimeZone() ? localOffsetAt(t) : zoneOffsetAt(t, timeZone);
}

/** Local time minus UTC at instant `t` in any zone, in ms (whole minutes), read from Intl. */
export function zoneOffsetAt(t: number, timeZone: string): number {
  let f = clocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    clocks.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(t).map((x) => [x.type, x.value]));
  const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
  return local - (t - (t % 60_000));
}

const DAY = 24 * HOUR;

/** Midnight of the current day in `timeZone` by its wall clock, as epoch milliseconds. */
export function startOfToday(now: number, timeZone: string): number {
  const local = now + offsetAt(now, timeZone);
  return now - (((local % DAY) + DAY) % DAY);
}

/** Where local day `day` begins and ends (the next day's start), in epoch ms. */
export function dayBounds(day: string, timeZone: string): { since: number; until: number } {
  const [y, m, d] = day.split('-').map(Number);
  return { since: startOf(Date.UTC(y, m - 1, d), day, timeZone), until: startOf(Date.UTC(y, m - 1, d + 1), null, timeZone) };
}

/** The first instant whose local day is the one of UTC midnight `utcMidnight`, searched in 15-minute steps. */
function startOf(utcMidnight: number, day: string | null, timeZone: string): number {
  const target = day ?? new Date(utcMidnight).toISOString().slice(0, 10);
  const step = 15 * 60 * 1000;
  // Offsets lie within ±14 h: start where the local day cannot have begun yet.
  let t = utcMidnight - 15 * 3600 * 1000;
  while (localDay(t, timeZone) < target) t += step;
  // Refine to the minute inside the last step (zones are offset by whole minutes).
  let s = t - step;
  while (s < t && localDay(s, timeZone) < target) s += 60_000;
  return s;
}
