/**
 * @module Context breakdown: token estimates per request section (architecture.md, "Request
 * sections"), raw and calibrated to the reported input, and the share of the context window.
 *
 * Why the sections add up: o200k first splits text into pieces with a regular expression and
 * encodes each piece alone, so the count of a text is the sum of the counts of its pieces. A
 * newline followed by a character that is neither whitespace nor `/` is always a piece boundary
 * (no alternative of the o200k pattern can match across it), and render.ts cuts blocks only
 * there. Hence Σ count(block) = count(whole rendering) exactly, and sections never overlap.
 */
import type { ContextBreakdown, ContextCalibration, ContextSection, GroupTotals, SectionGroup } from '../protocol/analysis';
import { renderRequest, type Block } from './render';
import { phrase } from './texts';
import { countTextTokens, TOKENIZER } from './tokenizer';

export interface ContextOptions {
  /** `input_tokens` the upstream reported, for the calibrated view. */
  reportedInputTokens: number | null;
  contextWindow: number | null;
}

/** Splits `total` over `weights` in proportion, rounding so the parts sum to `total` exactly. */
export function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (w * total) / sum);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    out[i]++;
    left--;
  }
  return out;
}

/** Per-section tallies of the rendered blocks, in order of first appearance. */
function tallySections(blocks: Block[]): Omit<ContextSection, 'calibratedTokens'>[] {
  const bySection = new Map<string, Omit<ContextSection, 'calibratedTokens'> & { units: Set<string> }>();
  for (const b of blocks) {
    let s = bySection.get(b.section);
    if (!s) {
      s = { name: b.section, group: b.group, tool: b.tool, tokens: 0, bytes: 0, items: 0, opaqueBytes: 0, units: new Set() };
      bySection.set(b.section, s);
    }
    s.tokens += countTextTokens(b.text);
    s.bytes += Buffer.byteLength(b.text, 'utf8');
    s.opaqueBytes += b.opaqueBytes;
    s.units.add(b.unit);
  }
  return [...bySection.values()].map(({ units, ...s }) => ({ ...s, items: units.size }));
}

/** Below ×0.67 or above ×1.5 of the raw estimate, a proportional calibration would mislead. */
export const CALIBRATION_BAND = { min: 0.67, max: 1.5 } as const;

const GROUP_ORDER: readonly SectionGroup[] = ['tools', 'instructions', 'input', 'other'];

/** Calibrated tokens per section and the calibration behind them (see `ContextCalibration`). */
export function calibrate(
  raw: number[],
  reported: number | null,
  opaqueBytes = 0,
): { calibrated: number[] | null; calibration: ContextCalibration | null } {
  const total = raw.reduce((a, b) => a + b, 0);
  if (reported === null || total <= 0) return { calibrated: null, calibration: null };
  const scale = reported / total;
  if (scale > CALIBRATION_BAND.max) {
    const unaccounted = reported - total;
    const figures = { reported, scale, estimate: total, unaccounted };
    const warning = opaqueBytes > 0 ? phrase('calibration.aboveOpaque', { ...figures, opaqueBytes }) : phrase('calibration.above', figures);
    return {
      calibrated: raw,
      calibration: { scale, unaccountedTokens: unaccounted, warning: warning.text, warningCode: warning.code },
    };
  }
  const calibrated = apportion(reported, raw);
  const warning = scale < CALIBRATION_BAND.min ? phrase('calibration.below', { reported, scale, estimate: total }) : null;
  return { calibrated, calibration: { scale, unaccountedTokens: 0, warning: warning?.text ?? null, warningCode: warning?.code ?? null } };
}

/** Sums per group, in display order. */
function groupTotals(sections: ContextSection[]): GroupTotals[] {
  return GROUP_ORDER.flatMap((group) => {
    const list = sections.filter((s) => s.group === group);
    if (list.length === 0) return [];
    const known = list.every((s) => s.calibratedTokens !== null);
    return [
      {
        group,
        tokens: list.reduce((a, s) => a + s.tokens, 0),
        calibratedTokens: known ? list.reduce((a, s) => a + (s.calibratedTokens ?? 0), 0) : null,
        bytes: list.reduce((a, s) => a + s.bytes, 0),
        opaqueBytes: list.reduce((a, s) => a + s.opaqueBytes, 0),
      },
    ];
  });
}

/** The context breakdown of one request body. */
export function contextBreakdown(body: unknown, opts: ContextOptions): ContextBreakdown {
  const raw = tallySections(renderRequest(body));
  const totalTokens = raw.reduce((a, s) => a + s.tokens, 0);
  const reported = opts.reportedInputTokens;
  const opaque = raw.reduce((a, s) => a + s.opaqueBytes, 0);
  const { calibrated, calibration } = calibrate(
    raw.map((s) => s.tokens),
    reported,
    opaque,
  );
  const used = reported ?? totalTokens;
  const sections = raw.map((s, i) => ({ ...s, calibratedTokens: calibrated ? calibrated[i] : null }));
  return {
    tokenizer: TOKENIZER,
    sections,
    totalTokens,
    reportedInputTokens: reported,
    contextWindow: opts.contextWindow,
    windowShare: opts.contextWindow ? used / opts.contextWindow : null,
    calibration,
    groups: groupTotals(sections),
  };
}
