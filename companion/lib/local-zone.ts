/**
 * @module This machine's time zone, named without Intl where the system names it. The first Intl
 * date formatter of a process loads ICU's locale data, about 8 MB of resident memory in Node 20,
 * which a companion idling all day should not pay to name its zone and find where today began.
 * ICU itself takes the zone from the TZ variable, else from the /etc/localtime link into a
 * zoneinfo folder; the name is read from the same places, and Intl is asked only when neither
 * gives a zone the system has. Offsets in this zone come from Date (time-zone.ts), which follows
 * the same zone without loading the locale data.
 */
import fs from 'node:fs';

/** Zones ECMA-402 names `UTC` (what Intl answers for them). */
const UTC_ALIASES = new Set([
  'Etc/UTC',
  'Etc/UCT',
  'Etc/Universal',
  'Etc/Zulu',
  'Etc/GMT',
  'Etc/GMT+0',
  'Etc/GMT-0',
  'Etc/GMT0',
  'Etc/Greenwich',
  'GMT',
  'GMT+0',
  'GMT-0',
  'GMT0',
  'Greenwich',
  'UCT',
  'Universal',
  'Zulu',
]);

export interface ZoneSources {
  env: NodeJS.ProcessEnv;
  /** The target of a symbolic link, or null when it is none. */
  readLink(path: string): string | null;
  /** Whether a zoneinfo file exists. */
  exists(path: string): boolean;
  /** Intl's answer, the last resort. */
  intl(): string;
}

/** The part of a zoneinfo path after `zoneinfo/`, when it names a file that exists. */
function zoneOfPath(p: string, src: ZoneSources): string | null {
  const at = p.lastIndexOf('/zoneinfo/');
  if (at < 0 || !src.exists(p)) return null;
  return p.slice(at + '/zoneinfo/'.length) || null;
}

/** The zone's IANA name as the given sources state it. */
export function readLocalTimeZone(src: ZoneSources): string {
  const name = (() => {
    const tz = src.env.TZ?.replace(/^:/, '');
    if (tz) {
      if (tz.startsWith('/')) return zoneOfPath(tz, src);
      // A POSIX rule (`CET-1CEST`) names no zoneinfo file: Intl says what ICU made of it.
      return /^[A-Za-z][\w+-]*(\/[\w+-]+)*$/.test(tz) && src.exists(`/usr/share/zoneinfo/${tz}`) ? tz : null;
    }
    if (tz === '') return null;
    const link = src.readLink('/etc/localtime');
    return link ? zoneOfPath(link, src) : null;
  })();
  if (name === null) return src.intl();
  return UTC_ALIASES.has(name) ? 'UTC' : name;
}

const system: ZoneSources = {
  env: process.env,
  readLink: (p) => {
    try {
      const target = fs.readlinkSync(p);
      return target.startsWith('/') ? target : `${p.slice(0, p.lastIndexOf('/'))}/${target}`;
    } catch {
      return null;
    }
  },
  exists: (p) => fs.existsSync(p),
  intl: () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
};

/** Local time minus UTC at instant `t` in the zone Date follows (localTimeZone()), in ms. */
export function localOffsetAt(t: number): number {
  return -new Date(t).getTimezoneOffset() * 60_000;
}

let cached: string | null = null;

/** The user's own time zone: "today" and daily totals follow the clock on their wall. */
export function localTimeZone(): string {
  return (cached ??= readLocalTimeZone(system));
}
