// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { TurnUsage } from '../../../companion/protocol';
import TurnTimeline from '../../../extension/components/sessions/TurnTimeline.vue';
import { turnTimeline } from '../../../extension/lib/turn-timeline';
import { fakeRollup } from '../../support/extension-factories';

const turn = (i: number, costUsd: number, tokens: number, costStatus: 'priced' | 'partial' | 'unknown' = 'priced'): TurnUsage => ({
  ...fakeRollup({ costUsd, codexTokensUsed: tokens }),
  costStatus,
  sessionId: 's-1',
  threadId: 't-1',
  turnId: `turn-${i}`,
  startedAt: Date.UTC(2026, 11, 1, 12, i),
});

describe("a session's per-turn timeline", () => {
  it('scales each turn’s cost and tokens to the session’s largest, oldest first', () => {
    const c = turnTimeline([turn(0, 0.5, 1000), turn(1, 2, 4000), turn(2, 1, 500)], 60, 40);
    expect(c.maxCostUsd).toBe(2);
    expect(c.maxTokens).toBe(4000);
    expect(c.bars.map((b) => b.x)).toEqual([0, 20, 40]);
    // A few turns in a wide chart stay narrow bars.
    expect(turnTimeline([turn(0, 1, 1), turn(1, 1, 1)], 600, 40).bars.map((b) => b.x)).toEqual([0, 24]);
    expect(turnTimeline([turn(0, 0, 10, 'unknown')], 600, 40).maxCostUsd).toBeNull();
    expect(c.bars.map((b) => b.costHeight)).toEqual([10, 40, 20]);
    expect(c.bars.map((b) => b.tokenHeight)).toEqual([10, 40, 5]);
  });

  it('marks a turn whose cost is unknown instead of drawing it as $0, and leaves it out of the largest', () => {
    const c = turnTimeline([turn(0, 0, 1000, 'unknown'), turn(1, 0.25, 1000), turn(2, 0.1, 200, 'partial')], 300, 40);
    expect(c.maxCostUsd).toBe(0.25);
    expect(c.bars[0]).toMatchObject({ costKnown: false, costHeight: 0 });
    expect(c.bars[2]).toMatchObject({ costKnown: true, costPartial: true, costHeight: 16 });
  });

  it('draws one bar per turn with its figures on hover and a "?" where the cost is unknown', () => {
    const w = mount(TurnTimeline, { props: { turns: [turn(0, 0, 1200, 'unknown'), turn(1, 0.5, 3400)] } });
    const bars = w.findAll('[data-testid="turn-bar"]');
    expect(bars).toHaveLength(2);
    expect(bars[0].attributes('data-cost-known')).toBe('false');
    expect(bars[0].find('text').text()).toBe('?');
    expect(bars[0].find('title').text()).toContain('unknown');
    expect(bars[1].find('title').text()).toContain('3,400');
    expect(bars[1].find('title').text()).toContain('$0.50');
  });
});
