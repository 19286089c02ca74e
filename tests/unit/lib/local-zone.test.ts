import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { localOffsetAt, localTimeZone, readLocalTimeZone, type ZoneSources } from '../../../companion/lib/local-zone';
import { zoneOffsetAt } from '../../../companion/store/sqlite/time-zone';

/** Sources where `files` exist, `/etc/localtime` links to `link`, and Intl would answer `intl`. */
function sources(env: NodeJS.ProcessEnv, link: string | null, files: string[], intl = 'Intl/Answer'): ZoneSources {
  return { env, readLink: (p) => (p === '/etc/localtime' ? link : null), exists: (p) => files.includes(p), intl: () => intl };
}

const ZI = '/usr/share/zoneinfo';

describe('the local time zone, named without Intl where the system names it', () => {
  it('takes an IANA name from TZ, with or without the leading colon, or from a zoneinfo path in it', () => {
    const files = [`${ZI}/Europe/Paris`, `${ZI}/Asia/Kolkata`, `${ZI}/EST5EDT`];
    expect(readLocalTimeZone(sources({ TZ: 'Europe/Paris' }, null, files))).toBe('Europe/Paris');
    expect(readLocalTimeZone(sources({ TZ: ':Europe/Paris' }, null, files))).toBe('Europe/Paris');
    expect(readLocalTimeZone(sources({ TZ: `${ZI}/Asia/Kolkata` }, null, files))).toBe('Asia/Kolkata');
    expect(readLocalTimeZone(sources({ TZ: 'EST5EDT' }, null, files))).toBe('EST5EDT');
  });

  it('asks Intl when TZ holds a POSIX rule, an unknown name or nothing', () => {
    const files = [`${ZI}/Europe/Paris`];
    for (const TZ of ['CET-1CEST', 'Mars/Olympus', '../etc/passwd', '', '/etc/nowhere'])
      expect(readLocalTimeZone(sources({ TZ }, `${ZI}/Europe/Paris`, files)), TZ).toBe('Intl/Answer');
  });

  it('reads the /etc/localtime link when TZ is unset, on Linux and macOS layouts', () => {
    expect(readLocalTimeZone(sources({}, `${ZI}/America/New_York`, [`${ZI}/America/New_York`]))).toBe('America/New_York');
    const mac = '/var/db/timezone/zoneinfo/Australia/Lord_Howe';
    expect(readLocalTimeZone(sources({}, mac, [mac]))).toBe('Australia/Lord_Howe');
    // A copied file instead of a link, or a link to nowhere: Intl.
    expect(readLocalTimeZone(sources({}, null, []))).toBe('Intl/Answer');
    expect(readLocalTimeZone(sources({}, `${ZI}/Gone/Zone`, []))).toBe('Intl/Answer');
  });

  it('names the UTC aliases UTC, as Intl does', () => {
    for (const alias of ['Etc/UTC', 'Etc/GMT', 'UCT', 'Zulu', 'Etc/Universal'])
      expect(readLocalTimeZone(sources({}, `${ZI}/${alias}`, [`${ZI}/${alias}`])), alias).toBe('UTC');
    expect(new Intl.DateTimeFormat('en-US', { timeZone: 'Etc/UTC' }).resolvedOptions().timeZone).toBe('UTC');
  });

  it('gives the name Intl gives on this machine', () => {
    expect(localTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});

describe('the local offset (from Date) is the Intl offset time-zone.ts reads for the zone TZ names', () => {
  const saved = process.env.TZ;
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it('at any instant, half-hour, 45-minute and DST zones included (property)', () => {
    for (const zone of [
      'Asia/Kathmandu',
      'America/St_Johns',
      'Pacific/Chatham',
      'America/New_York',
      'Australia/Lord_Howe',
      'Europe/Paris',
    ]) {
      // Node applies a new TZ to Date at once.
      process.env.TZ = zone;
      fc.assert(
        fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2037, 0, 1) }), (t) => {
          expect(localOffsetAt(t), `${zone} ${new Date(t).toISOString()}`).toBe(zoneOffsetAt(t, zone));
        }),
        { numRuns: 300 },
      );
    }
  });
});
