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
import type { ContextBreakdown, ContextSection } from '../protocol/analysis';
import { renderRequest, type Block } from './render';
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

/** The context breakdown of one request body. */
export function contextBreakdown(body: unknown, opts: ContextOptions): ContextBreakdown {
  const raw = tallySections(renderRequest(body));
  const totalTokens = raw.reduce((a, s) => a + s.tokens, 0);
  const reported = opts.reportedInputTokens;
  const calibrated =
    reported !== null && totalTokens > 0
      ? apportion(
          reported,
          raw.map((s) => s.tokens),
        )
      : null;
  const used = reported ?? totalTokens;
  return {
    tokenizer: TOKENIZER,
    sections: raw.map((s, i) => ({ ...s, calibratedTokens: calibrated ? calibrated[i] : null })),
    totalTokens,
    reportedInputTokens: reported,
    contextWindow: opts.contextWindow,
    windowShare: opts.contextWindow ? used / opts.contextWindow : null,
  };
}
