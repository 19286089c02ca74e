import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayBounds, dayReader, localDay, startOfToday } from '../../../companion/store/sqlite/time-zone';

const ZONES = [
  'UTC',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Pacific/Chatham',
  'America/New_York',
  'Australia/Lord_Howe',
  'Pacific/Kiritimati',
];
const instant = fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2028, 0, 1) });

describe('local days in IANA zones', () => {
  it('reads the same day as formatting, offsets of 30 and 45 minutes and DST changes included (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.array(instant, { minLength: 1, maxLength: 50 }), (zone, ts) => {
        const dayOf = dayReader(zone);
        for (const t of ts) expect(dayOf(t)).toBe(localDay(t, zone));
      }),
      { numRuns: 200 },
    );
  });

  it('bounds a local day exactly: its first minute is the day, the minute before is not (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), instant, (zone, t) => {
        const day = localDay(t, zone);
        const { since, until } = dayBounds(day, zone);
        expect(since <= t && t < until).toBe(true);
        expect(localDay(since, zone)).toBe(day);
        expect(localDay(since - 60_000, zone) < day).toBe(true);
        expect(localDay(until, zone) > day).toBe(true);
        expect(localDay(until - 60_000, zone)).toBe(day);
      }),
      { numRuns: 200 },
    );
  });

  it("gives today's start to the millisecond on every day without a clock change (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), instant, (zone, t) => {
        const { since, until } = dayBounds(localDay(t, zone), zone);
        // On a day the clocks change, the wall clock's midnight is not the day's first instant.
        fc.pre(until - since === 86_400_000);
        expect(startOfToday(t, zone)).toBe(since);
      }),
      { numRuns: 300 },
    );
  });
});
