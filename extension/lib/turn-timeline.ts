/**
 * Bars of a session's per-turn timeline: one column per turn, oldest first, its cost above and its
 * tokens ("as Codex counts") below, each scaled to the session's largest. A turn whose cost is
 * unknown (nothing priced) gets an "unknown" mark, never a bar of $0; a partly priced turn's bar
 * is marked as a lower bound. The companion computed every figure; this only lays them out.
 */
import type { TurnUsage } from '../../companion/protocol';

export interface TurnBar {
  x: number;
  width: number;
  /** Height of the cost bar (0 when unknown); `costKnown` false draws the unknown mark instead. */
  costHeight: number;
  costKnown: boolean;
  costPartial: boolean;
  tokenHeight: number;
  turn: TurnUsage;
}

export interface TurnTimeline {
  bars: TurnBar[];
  /** Null when no turn is priced: the scale is unknown, not $0. */
  maxCostUsd: number | null;
  maxTokens: number;
}

const MAX_STEP = 24;

/** `band` is the height of each of the two rows (cost, tokens); bars fill `width` with a 1 px gap. */
export function turnTimeline(turns: readonly TurnUsage[], width: number, band: number): TurnTimeline {
  const known = turns.filter((t) => t.costStatus !== 'unknown');
  const maxCostUsd = known.length ? Math.max(0, ...known.map((t) => t.costUsd)) : null;
  const maxTokens = Math.max(0, ...turns.map((t) => t.codexTokensUsed));
  // A few turns stay bars, not slabs across the whole width.
  const step = turns.length ? Math.min(width / turns.length, MAX_STEP) : 0;
  const scale = (v: number, max: number) => (max > 0 ? Math.max(v > 0 ? 1 : 0, (v / max) * band) : 0);
  return {
    maxCostUsd,
    maxTokens,
    bars: turns.map((turn, i) => ({
      x: i * step,
      width: Math.max(1, step - 1),
      costKnown: turn.costStatus !== 'unknown',
      costPartial: turn.costStatus === 'partial',
      costHeight: turn.costStatus === 'unknown' ? 0 : scale(turn.costUsd, maxCostUsd ?? 0),
      tokenHeight: scale(turn.codexTokensUsed, maxTokens),
      turn,
    })),
  };
}
