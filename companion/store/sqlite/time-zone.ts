/**
 * @module Local days in an IANA time zone, for roll-ups stored in UTC buckets: which day a
 * bucket falls on, and where a day begins and ends.
 */
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
