import { describe, expect, it } from 'vitest';
import { RateLimitState } from '../../../companion/store/ratelimit-state';
import { rateLimitsOfHeaders } from '../../../companion/capture/ratelimits';
import { loadFixture } from '../../support/fixtures';
import { lowerPairs } from '../../support/flows';

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

describe('the latest rate-limit state', () => {
  it('keeps, with each value, when it was read, so a value kept from an old 429 says how old it is', () => {
    const refused = loadFixture('d-http429-usage-limit-1').response_sent_by_fake_upstream;
    const ok = loadFixture('d-ratelimit-headers-ok-1').response_sent_by_fake_upstream;
    const state = new RateLimitState(null);
    state.update(rateLimitsOfHeaders(lowerPairs(refused.headers), T0)!);
    // A later response that carries only the API headers: the Codex windows stay from the 429.
    const apiOnly = Object.fromEntries(Object.entries(ok.headers).filter(([k]) => !k.startsWith('x-codex-')));
    const later = rateLimitsOfHeaders(lowerPairs({ ...apiOnly, 'x-ratelimit-remaining-requests': '499' }), T0 + 60_000);
    const merged = state.update(later!);
    expect(merged.observedAt).toBe(T0 + 60_000);
    expect(merged.codex).toEqual([expect.objectContaining({ limitId: 'codex', observedAt: T0 })]);
    expect(merged.codex[0].primary?.usedPercent).toBe(100);
    expect(merged.api).toMatchObject({ remainingRequests: 499, observedAt: T0 + 60_000 });
  });
});
