import { describe, expect, it } from 'vitest';
import { badgeFor } from '../../../extension/lib/badge';
import { limitViews, windowLabel } from '../../../extension/lib/rate-limit-view';
import { fakeRateLimits } from '../../support/extension-factories';

describe('rate-limit gauges and the toolbar badge', () => {
  it('labels the 5-hour and weekly windows and gives reset times in milliseconds', () => {
    const [l] = limitViews(fakeRateLimits(42, 10));
    expect(l.gauges.map((g) => g.label)).toEqual(['5 h window', 'weekly window']);
    expect(l.gauges[0].resetsAt).toBe(fakeRateLimits().codex[0].primary!.resetsAt! * 1000);
    expect(windowLabel(null)).toBe('window of unknown length');
  });

  it('highlights a window from 80 % used, not below', () => {
    expect(limitViews(fakeRateLimits(79.9))[0].gauges[0].high).toBe(false);
    expect(limitViews(fakeRateLimits(80))[0].gauges[0].high).toBe(true);
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
