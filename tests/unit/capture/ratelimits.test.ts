import { describe, expect, it } from 'vitest';
import { parseRateLimitEvent, parseRateLimitHeaders, rateLimitsOfHeaders } from '../../../companion/capture/ratelimits';
import type { RateLimits } from '../../../companion/protocol/ratelimits';
import { loadFixture } from '../../support/fixtures';

const T = 1_795_983_468_000;

const of = (h: Record<string, string>) => rateLimitsOfHeaders(Object.entries(h), T);

/** What a response with only the given parts reads as. */
const limits = (parts: Partial<RateLimits>): RateLimits => ({
  observedAt: T,
  codex: [],
  credits: null,
  api: null,
  planType: null,
  promoMessage: null,
  reachedType: null,
  ...parts,
});

const API_NONE: NonNullable<RateLimits['api']> = {
  limitRequests: null,
  remainingRequests: null,
  resetRequests: null,
  limitTokens: null,
  remainingTokens: null,
  resetTokens: null,
};

describe('rate limits from the headers of a captured Codex 0.169 response', () => {
  it('reads both windows and the credits of the x-codex family', () => {
    const f = loadFixture('d-ratelimit-headers-ok-1');
    expect(of(f.response_sent_by_fake_upstream.headers)).toEqual(
      limits({
        codex: [
          {
            limitId: 'codex',
            limitName: null,
            primary: { usedPercent: 12.5, windowMinutes: 300, resetsAt: 1795987068 },
            secondary: { usedPercent: 3, windowMinutes: 10080, resetsAt: 1796069868 },
          },
        ],
        credits: { hasCredits: false, unlimited: false, balance: null },
      }),
    );
  });

  it('finds nothing in a response without rate-limit headers', () => {
    const f = loadFixture('a-plain-text-1');
    expect(of(f.response_sent_by_fake_upstream.headers)).toBeNull();
    expect(of({})).toBeNull();
  });
});

describe('rate-limit windows', () => {
  it('needs a used percent for a window', () => {
    expect(of({ 'x-codex-primary-window-minutes': '300', 'x-codex-primary-reset-at': '1700000000' })).toBeNull();
  });

  it('keeps a window with only its used percent, the rest unknown', () => {
    expect(of({ 'x-codex-primary-used-percent': '40' })?.codex).toEqual([
      { limitId: 'codex', limitName: null, primary: { usedPercent: 40, windowMinutes: null, resetsAt: null }, secondary: null },
    ]);
  });

  it('ignores an all-zero window without a reset time, as Codex does', () => {
    expect(of({ 'x-codex-primary-used-percent': '0' })).toBeNull();
    expect(of({ 'x-codex-primary-used-percent': '0', 'x-codex-primary-window-minutes': '0' })).toBeNull();
  });

  it('keeps a zero window that has a length or a reset time', () => {
    expect(of({ 'x-codex-primary-used-percent': '0', 'x-codex-primary-window-minutes': '300' })?.codex[0].primary).toEqual({
      usedPercent: 0,
      windowMinutes: 300,
      resetsAt: null,
    });
    expect(of({ 'x-codex-primary-used-percent': '0', 'x-codex-primary-reset-at': '0' })?.codex[0].primary).toEqual({
      usedPercent: 0,
      windowMinutes: null,
      resetsAt: 0,
    });
  });

  it('keeps a family that has only a secondary window', () => {
    expect(of({ 'x-codex-secondary-used-percent': '7.5', 'x-codex-secondary-window-minutes': '10080' })?.codex).toEqual([
      { limitId: 'codex', limitName: null, primary: null, secondary: { usedPercent: 7.5, windowMinutes: 10080, resetsAt: null } },
    ]);
  });

  it('reads numbers with surrounding spaces and refuses blank, non-numeric and infinite ones', () => {
    const used = (v: string) =>
      of({ 'x-codex-primary-used-percent': v, 'x-codex-primary-window-minutes': '60' })?.codex[0]?.primary ?? null;
    expect(used(' 12.5 ')).toEqual({ usedPercent: 12.5, windowMinutes: 60, resetsAt: null });
    expect(used('1e2')).toEqual({ usedPercent: 100, windowMinutes: 60, resetsAt: null });
    expect(used('')).toBeNull();
    expect(used('   ')).toBeNull();
    expect(used('twelve')).toBeNull();
    expect(used('Infinity')).toBeNull();
    expect(used('NaN')).toBeNull();
  });
});

describe('rate-limit families', () => {
  it('reads an additional x-<id>- family, its id with dashes as underscores, and its name', () => {
    expect(
      of({
        'x-codex-other-extra-primary-used-percent': '50',
        'x-codex-other-extra-primary-window-minutes': '60',
        'x-codex-other-extra-limit-name': '  Other model  ',
      })?.codex,
    ).toEqual([
      {
        limitId: 'codex_other_extra',
        limitName: 'Other model',
        primary: { usedPercent: 50, windowMinutes: 60, resetsAt: null },
        secondary: null,
      },
    ]);
  });

  it('lists the codex family first and the others in header order, each once', () => {
    const r = of({
      'x-zeta-primary-used-percent': '1',
      'x-codex-primary-used-percent': '2',
      'x-alpha-primary-used-percent': '3',
    });
    expect(r?.codex.map((c) => [c.limitId, c.primary?.usedPercent])).toEqual([
      ['codex', 2],
      ['zeta', 1],
      ['alpha', 3],
    ]);
  });

  it('finds a family from a header name in any case', () => {
    const h = new Map([['x-beta-primary-used-percent', '9']]);
    const r = parseRateLimitHeaders(['X-Beta-Primary-Used-Percent'], (n) => h.get(n) ?? null, T);
    expect(r?.codex.map((c) => c.limitId)).toEqual(['beta']);
  });

  it('finds a family only from a name that is exactly x-<id>-primary-used-percent', () => {
    const h = new Map([
      ['x-beta-primary-used-percent', '9'],
      ['x-gamma-primary-used-percent', '8'],
    ]);
    const get = (n: string) => h.get(n) ?? null;
    // The names list is what the lookup goes by: names that only contain the pattern find nothing.
    expect(parseRateLimitHeaders(['xx-beta-primary-used-percent', 'x-gamma-primary-used-percent-old'], get, T)).toBeNull();
    expect(parseRateLimitHeaders(['x--primary-used-percent'], get, T)).toBeNull();
  });

  it('takes an empty or blank limit name as none', () => {
    expect(of({ 'x-codex-primary-used-percent': '5', 'x-codex-limit-name': '' })?.codex[0].limitName).toBeNull();
    expect(of({ 'x-codex-primary-used-percent': '5', 'x-codex-limit-name': '   ' })?.codex[0].limitName).toBeNull();
  });

  it('drops a named family whose windows are all empty', () => {
    expect(of({ 'x-other-primary-used-percent': '0', 'x-codex-primary-used-percent': '1' })?.codex.map((c) => c.limitId)).toEqual([
      'codex',
    ]);
  });

  it('counts the last of a repeated header', () => {
    const r = rateLimitsOfHeaders(
      [
        ['x-codex-primary-used-percent', '10'],
        ['x-codex-primary-used-percent', '20'],
      ],
      T,
    );
    expect(r?.codex[0].primary?.usedPercent).toBe(20);
  });
});

describe('credits, API limits and messages', () => {
  it('reads credit flags as true/false/1/0 in any case and with spaces', () => {
    const flag = (v: string) => of({ 'x-codex-credits-has-credits': v })?.credits?.hasCredits ?? 'none';
    expect(flag('true')).toBe(true);
    expect(flag(' TRUE ')).toBe(true);
    expect(flag('1')).toBe(true);
    expect(flag('false')).toBe(false);
    expect(flag('False')).toBe(false);
    expect(flag(' 0')).toBe(false);
    expect(flag('yes')).toBe('none');
  });

  it('reads the credits when either flag is known, with the balance', () => {
    expect(of({ 'x-codex-credits-unlimited': 'true', 'x-codex-credits-balance': ' 12.34 ' })).toEqual(
      limits({ credits: { hasCredits: null, unlimited: true, balance: '12.34' } }),
    );
    expect(of({ 'x-codex-credits-has-credits': '1' })).toEqual(limits({ credits: { hasCredits: true, unlimited: null, balance: null } }));
  });

  it('ignores a credit balance without either flag', () => {
    expect(of({ 'x-codex-credits-balance': '5' })).toBeNull();
    expect(of({ 'x-codex-credits-has-credits': 'maybe', 'x-codex-credits-balance': '5' })).toBeNull();
  });

  it('reads every standard x-ratelimit header API-key users get', () => {
    expect(
      of({
        'x-ratelimit-limit-requests': '500',
        'x-ratelimit-remaining-requests': '499',
        'x-ratelimit-reset-requests': '120ms',
        'x-ratelimit-limit-tokens': '30000',
        'x-ratelimit-remaining-tokens': '29000',
        'x-ratelimit-reset-tokens': '2s',
      }),
    ).toEqual(
      limits({
        api: {
          limitRequests: 500,
          remainingRequests: 499,
          resetRequests: '120ms',
          limitTokens: 30000,
          remainingTokens: 29000,
          resetTokens: '2s',
        },
      }),
    );
  });

  it('reports the API limits when any one of their headers is there', () => {
    const cases: [string, string, Partial<typeof API_NONE>][] = [
      ['x-ratelimit-limit-requests', '10', { limitRequests: 10 }],
      ['x-ratelimit-remaining-requests', '0', { remainingRequests: 0 }],
      ['x-ratelimit-reset-requests', '1s', { resetRequests: '1s' }],
      ['x-ratelimit-limit-tokens', '20', { limitTokens: 20 }],
      ['x-ratelimit-remaining-tokens', '30', { remainingTokens: 30 }],
      ['x-ratelimit-reset-tokens', '6m0s', { resetTokens: '6m0s' }],
    ];
    for (const [name, value, api] of cases) expect(of({ [name]: value }), name).toEqual(limits({ api: { ...API_NONE, ...api } }));
  });

  it('ignores blank API limit headers', () => {
    expect(of({ 'x-ratelimit-limit-requests': '  ', 'x-ratelimit-reset-tokens': ' ' })).toBeNull();
  });

  it('reports a promo message or a reached-limit type on its own', () => {
    expect(of({ 'x-codex-promo-message': ' Try Pro ' })).toEqual(limits({ promoMessage: 'Try Pro' }));
    expect(of({ 'x-codex-rate-limit-reached-type': 'primary' })).toEqual(limits({ reachedType: 'primary' }));
    expect(of({ 'x-codex-promo-message': '', 'x-codex-rate-limit-reached-type': '  ' })).toBeNull();
  });
});

describe('rate limits from a codex.rate_limits WebSocket message', () => {
  it('reads the windows, credits and plan of the message', () => {
    const msg = {
      type: 'codex.rate_limits',
      plan_type: 'plus',
      rate_limits: {
        primary: { used_percent: 12.5, window_minutes: 300, reset_at: 1795987068 },
        secondary: { used_percent: 3, window_minutes: 10080, reset_at: 1796069868 },
      },
      credits: { has_credits: true, unlimited: false, balance: '4.20' },
    };
    expect(parseRateLimitEvent(msg, T)).toEqual(
      limits({
        codex: [
          {
            limitId: 'codex',
            limitName: null,
            primary: { usedPercent: 12.5, windowMinutes: 300, resetsAt: 1795987068 },
            secondary: { usedPercent: 3, windowMinutes: 10080, resetsAt: 1796069868 },
          },
        ],
        credits: { hasCredits: true, unlimited: false, balance: '4.20' },
        planType: 'plus',
      }),
    );
  });

  it('names the limit by metered_limit_name, else limit_name, else codex, normalised', () => {
    const id = (m: Record<string, unknown>) => parseRateLimitEvent({ type: 'codex.rate_limits', ...m }, T).codex[0].limitId;
    expect(id({ metered_limit_name: ' Codex-Other-Model ', limit_name: 'ignored' })).toBe('codex_other_model');
    expect(id({ limit_name: 'GPT-5-Mini' })).toBe('gpt_5_mini');
    expect(id({ metered_limit_name: 7, limit_name: 'fallback' })).toBe('fallback');
    expect(id({ limit_name: 7 })).toBe('codex');
  });

  it('leaves out what the message does not carry or carries in the wrong type', () => {
    const r = parseRateLimitEvent(
      {
        type: 'codex.rate_limits',
        plan_type: 3,
        rate_limits: {
          primary: { used_percent: '12', window_minutes: 300 },
          secondary: { used_percent: 0, window_minutes: '60', reset_at: '1' },
        },
        credits: { has_credits: 'true', unlimited: 1, balance: 5 },
      },
      T,
    );
    expect(r).toEqual(
      limits({
        codex: [{ limitId: 'codex', limitName: null, primary: null, secondary: { usedPercent: 0, windowMinutes: null, resetsAt: null } }],
        credits: { hasCredits: null, unlimited: null, balance: null },
      }),
    );
  });

  it('reads a message without rate limits or credits as an empty codex limit', () => {
    const empty = limits({ codex: [{ limitId: 'codex', limitName: null, primary: null, secondary: null }] });
    expect(parseRateLimitEvent({ type: 'codex.rate_limits' }, T)).toEqual(empty);
    expect(parseRateLimitEvent({ type: 'codex.rate_limits', rate_limits: [1], credits: 'none' }, T)).toEqual(empty);
    expect(parseRateLimitEvent({ type: 'codex.rate_limits', rate_limits: { primary: [50] } }, T)).toEqual(empty);
  });
});
