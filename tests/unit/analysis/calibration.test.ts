import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CALIBRATION_BAND, calibrate, contextBreakdown } from '../../../companion/analysis/context';
import { loadFixture } from '../../support/records';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('the calibrated context view', () => {
  it('always accounts for exactly the reported input: calibrated sections plus "unaccounted"', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 200_000 }), { minLength: 1, maxLength: 40 }).filter((w) => sum(w) > 0),
        fc.nat({ max: 2_000_000 }),
        (raw, reported) => {
          const { calibrated, calibration } = calibrate(raw, reported);
          expect(sum(calibrated!) + calibration!.unaccountedTokens).toBe(reported);
          for (const c of calibrated!) expect(Number.isInteger(c) && c >= 0).toBe(true);
          const scale = reported / sum(raw);
          expect(calibration!.scale).toBeCloseTo(scale, 10);
          // A warning exactly outside ×0.67–×1.5, and "unaccounted" only above it.
          expect(calibration!.warning !== null).toBe(scale < CALIBRATION_BAND.min || scale > CALIBRATION_BAND.max);
          if (scale <= CALIBRATION_BAND.max) expect(calibration!.unaccountedTokens).toBe(0);
          else expect(calibrated).toEqual(raw);
        },
      ),
    );
  });

  it('on a real request with many times its visible input, keeps raw sections, shows the rest as unaccounted and warns', () => {
    // The compaction run's first request: the fake upstream reported 250,000 input tokens for a few thousand of visible text.
    const fx = loadFixture('e-compaction-local-1.json');
    const b = contextBreakdown(fx.request!.body, { reportedInputTokens: 250_000, contextWindow: null });
    expect(b.calibration!.scale).toBeGreaterThan(1.5);
    expect(b.sections.map((s) => s.calibratedTokens)).toEqual(b.sections.map((s) => s.tokens));
    expect(b.calibration!.unaccountedTokens).toBe(250_000 - b.totalTokens);
    expect(b.calibration!.warning).toContain('250,000');
    expect(b.calibration!.warning).toContain('raw view');
  });

  it('calibrates within the band without a warning or an unaccounted bucket', () => {
    const body = loadFixture('codemode-tool-call-2.json').request!.body;
    const raw = contextBreakdown(body, { reportedInputTokens: null, contextWindow: null }).totalTokens;
    const b = contextBreakdown(body, { reportedInputTokens: Math.round(raw * 1.2), contextWindow: null });
    expect(b.calibration).toMatchObject({ unaccountedTokens: 0, warning: null });
    expect(sum(b.sections.map((s) => s.calibratedTokens!))).toBe(Math.round(raw * 1.2));
  });

  it('serves group totals that are the sums of their sections', () => {
    const body = loadFixture('codemode-tool-call-2.json').request!.body;
    const b = contextBreakdown(body, { reportedInputTokens: 12_100, contextWindow: null });
    expect(b.groups.map((g) => g.group)).toEqual(['tools', 'instructions', 'input']);
    for (const g of b.groups) {
      const inGroup = b.sections.filter((s) => s.group === g.group);
      expect(g.tokens).toBe(sum(inGroup.map((s) => s.tokens)));
      expect(g.calibratedTokens).toBe(sum(inGroup.map((s) => s.calibratedTokens!)));
    }
  });

  it('has no calibration without a reported input', () => {
    const b = contextBreakdown(loadFixture('a-plain-text-1.json').request!.body, { reportedInputTokens: null, contextWindow: null });
    expect(b.calibration).toBeNull();
    expect(b.groups.every((g) => g.calibratedTokens === null)).toBe(true);
  });
});
