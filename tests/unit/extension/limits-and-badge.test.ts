import { describe, expect, it } from 'vitest';
import { BADGE_STREAMING, badgeFor } from '../../../extension/lib/badge';
import { limitViews, windowLabel } from '../../../extension/lib/rate-limit-view';
import { fakeRateLimits } from '../../support/extension-factories';

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

describe('rate-limit gauges and the toolbar badge', () => {
  it('labels the 5-hour and weekly windows and gives reset times in milliseconds', () => {
    const [l] = limitViews(fakeRateLimits(42, 10, T0), T0);
    expect(l.gauges.map((g) => g.label)).toEqual(['5 h window', 'weekly window']);
    expect(l.gauges[0].resetsAt).toBe(T0 + 3600_000);
    expect(l.observedAt).toBe(T0);
    expect(windowLabel(null)).toBe('window of unknown length');
  });

  it('highlights a window from 80 % used, not below', () => {
    expect(limitViews(fakeRateLimits(79.9, 10, T0), T0)[0].gauges[0].high).toBe(false);
    expect(limitViews(fakeRateLimits(80, 10, T0), T0)[0].gauges[0].high).toBe(true);
  });

  it('marks a window stale once it has reset after the reading, and never as near the limit', () => {
    const r = fakeRateLimits(100, 85, T0);
    const justBefore = limitViews(r, T0 + 3600_000 - 1)[0].gauges;
    expect(justBefore.map((g) => [g.stale, g.high])).toEqual([
      [false, true],
      [false, true],
    ]);
    // The 5-hour window reset an hour after the reading; the weekly one has not.
    const after = limitViews(r, T0 + 3600_000)[0].gauges;
    expect(after.map((g) => [g.stale, g.high])).toEqual([
      [true, false],
      [false, true],
    ]);
    const capture = { paused: false, errors: 0, lastError: null };
    expect(badgeFor({ status: 'connected', offline: false, capture, rateLimits: r, now: T0 }).text).toBe('100%');
    expect(badgeFor({ status: 'connected', offline: false, capture, rateLimits: r, now: T0 + 3600_000 }).text).toBe('85%');
    expect(badgeFor({ status: 'connected', offline: false, capture, rateLimits: r, now: T0 + 86_400_000 }).text).toBe('');
  });

  it('dates each family by its own reading when the state merged older ones', () => {
    const r = fakeRateLimits(50, 10, T0 + 60_000);
    r.codex.push({ ...fakeRateLimits(90, 10, T0).codex[0], limitId: 'codex_other', observedAt: T0 });
    const [codex, other] = limitViews(r, T0 + 60_000);
    expect([codex.observedAt, other.observedAt]).toEqual([T0 + 60_000, T0]);
  });

  it('puts capture errors on the badge before rate limits', () => {
    const capture = { paused: false, errors: 2, lastError: 'disk full' };
    expect(badgeFor({ status: 'connected', offline: false, capture, rateLimits: fakeRateLimits(90) }).text).toBe('!');
  });

  it('shows the highest used % on the badge from 80 %, and nothing below', () => {
    const capture = { paused: false, errors: 0, lastError: null };
    expect(badgeFor({ status: 'connected', offline: false, capture, rateLimits: fakeRateLimits(20, 85.4) }).text).toBe('85%');
    expect(badgeFor({ status: 'connected', offline: false, capture, rateLimits: fakeRateLimits(20, 79) }).text).toBe('');
  });

  it('shows activity while responses stream, below errors, limits and a pause, and never while not connected', () => {
    const ok = { paused: false, errors: 0, lastError: null };
    const streaming = badgeFor({ status: 'connected', offline: false, capture: ok, rateLimits: null, streaming: 2 });
    expect(streaming).toMatchObject({ text: BADGE_STREAMING });
    expect(streaming.title).toContain('2 responses streaming');
    expect(badgeFor({ status: 'connected', offline: false, capture: ok, rateLimits: null, streaming: 0 }).text).toBe('');
    expect(badgeFor({ status: 'connected', offline: false, capture: ok, rateLimits: fakeRateLimits(90), streaming: 1 }).text).toBe('90%');
    expect(badgeFor({ status: 'connected', offline: false, capture: { ...ok, errors: 1 }, rateLimits: null, streaming: 1 }).text).toBe('!');
    expect(badgeFor({ status: 'connected', offline: false, capture: { ...ok, paused: true }, rateLimits: null, streaming: 1 }).text).toBe(
      'II',
    );
    expect(badgeFor({ status: 'connecting', offline: false, capture: ok, rateLimits: null, streaming: 1 }).text).toBe('');
    expect(badgeFor({ status: 'offline', offline: true, capture: ok, rateLimits: null, streaming: 1 }).text).toBe('off');
  });

  it('says "off" when the companion cannot be reached, also while it retries, and not before a first attempt failed', () => {
    const capture = { paused: false, errors: 2, lastError: 'disk full' };
    const rateLimits = fakeRateLimits(99);
    expect(badgeFor({ status: 'offline', offline: true, capture, rateLimits }).text).toBe('off');
    expect(badgeFor({ status: 'connecting', offline: true, capture, rateLimits }).text).toBe('off');
    expect(badgeFor({ status: 'connecting', offline: false, capture: null, rateLimits: null }).text).toBe('');
    expect(badgeFor({ status: 'offline', offline: true, capture: null, rateLimits: null }).title).toContain('npx codex-devtools');
  });

  it('asks for pairing when unpaired, and says so when the companion refused the token or speaks another version', () => {
    expect(badgeFor({ status: 'unpaired', offline: false, capture: null, rateLimits: null })).toMatchObject({ text: '?' });
    expect(badgeFor({ status: 'unauthorized', offline: true, capture: null, rateLimits: null }).title).toContain('pair again');
    expect(badgeFor({ status: 'mismatch', offline: false, capture: null, rateLimits: null }).text).toBe('!');
  });
});
