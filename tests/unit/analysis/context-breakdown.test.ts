import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { apportion, calibrate, CALIBRATION_BAND, contextBreakdown } from '../../../companion/analysis/context';

// An independent count: gpt-tokenizer itself, special-token text counted as plain text.
const count = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
const msg = (role: string, content: unknown) => ({ type: 'message', role, content });
const none = { reportedInputTokens: null, contextWindow: null };

describe('apportion', () => {
  it('gives the rounding remainder to the largest fractions first', () => {
    // Exact shares 1.6, 3.2, 5.2: floors 1, 3, 5 leave 1, which goes to the 0.6.
    expect(apportion(10, [1, 2, 3.25])).toEqual([2, 3, 5]);
    expect(apportion(5, [1, 1, 2])).toEqual([1, 1, 3]);
    // Equal fractions: earlier weights first.
    expect(apportion(2, [1, 1, 1])).toEqual([1, 1, 0]);
  });

  it('splits exact shares without rounding, and zero over anything as zeros', () => {
    expect(apportion(9, [1, 2])).toEqual([3, 6]);
    expect(apportion(0, [3, 4])).toEqual([0, 0]);
    expect(apportion(10, [])).toEqual([]);
  });

  it('gives zeros when the weights do not add up to something positive', () => {
    expect(apportion(10, [0, 0])).toEqual([0, 0]);
    expect(apportion(10, [-1, -2])).toEqual([0, 0]);
  });

  it('never hands out more than the total', () => {
    expect(apportion(3, [1, 1, 1, 1, 1, 1])).toEqual([1, 1, 1, 0, 0, 0]);
  });
});

describe('calibrate', () => {
  it('keeps the band at ×0.67 to ×1.5', () => {
    expect(CALIBRATION_BAND).toEqual({ min: 0.67, max: 1.5 });
  });

  it('calibrates nothing without a report or without an estimate', () => {
    expect(calibrate([10, 20], null)).toEqual({ calibrated: null, calibration: null });
    expect(calibrate([0, 0], 100)).toEqual({ calibrated: null, calibration: null });
    expect(calibrate([], 100)).toEqual({ calibrated: null, calibration: null });
  });

  it('scales the sections to the report within the band, with no warning', () => {
    expect(calibrate([30, 70], 120)).toEqual({
      calibrated: [36, 84],
      calibration: { scale: 1.2, unaccountedTokens: 0, warning: null, warningCode: null },
    });
    // ×1.5 is still inside.
    expect(calibrate([10, 10], 30).calibrated).toEqual([15, 15]);
    expect(calibrate([50, 50], 67).calibration!.warning).toBeNull();
  });

  it('keeps the raw estimates above the band and says how many tokens no section holds', () => {
    const r = calibrate([40, 60], 400);
    expect(r.calibrated).toEqual([40, 60]);
    expect(r.calibration).toEqual({
      scale: 4,
      unaccountedTokens: 300,
      warning:
        'the reported input (400) is ×4.00 the estimate of what the request shows (100): 300 tokens are in no section (opaque or encrypted input, a compaction, elided text), so sections keep their raw estimates; the raw view is the one to trust',
      warningCode: { code: 'calibration.above', params: { reported: 400, scale: 4, estimate: 100, unaccounted: 300 } },
    });
  });

  it('names the opaque bytes above the band when the request has some', () => {
    const r = calibrate([100], 151, 2048);
    expect(r.calibration!.warningCode).toEqual({
      code: 'calibration.aboveOpaque',
      params: { reported: 151, scale: 1.51, estimate: 100, unaccounted: 51, opaqueBytes: 2048 },
    });
    expect(r.calibration!.warning).toContain('(100, 2,048 bytes of it opaque (encrypted or images))');
  });

  it('scales down below the band, with a warning', () => {
    const r = calibrate([50, 50], 50);
    expect(r.calibrated).toEqual([25, 25]);
    expect(r.calibration).toEqual({
      scale: 0.5,
      unaccountedTokens: 0,
      warning: 'the reported input (50) is ×0.50 the estimate (100): sections are scaled down that much; the raw view is the one to trust',
      warningCode: { code: 'calibration.below', params: { reported: 50, scale: 0.5, estimate: 100 } },
    });
    expect(calibrate([100], 66).calibration!.warningCode!.code).toBe('calibration.below');
  });
});

describe('contextBreakdown', () => {
  it('tallies tokens, bytes, opaque bytes and items per section, in order of first appearance', () => {
    const body = {
      tools: [{ type: 'function', name: 'f', description: 'Does f.' }],
      input: [
        msg('user', 'héllo'),
        { type: 'function_call', name: 'f', arguments: '{}', call_id: 'c' },
        msg('user', [
          { type: 'input_text', text: 'second' },
          { type: 'input_image', image_url: 'data:xyz' },
        ]),
        { type: 'function_call_output', call_id: 'c', output: 'ok' },
      ],
    };
    const b = contextBreakdown(body, none);
    expect(b.tokenizer).toBe('o200k_base');
    expect(b.sections).toEqual([
      {
        name: 'tool:f',
        group: 'tools',
        tool: { key: 'f', namespace: null, name: 'f', placement: 'tools', kind: 'dynamic' },
        tokens: count('tool f\nDoes f.\n'),
        bytes: 'tool f\nDoes f.\n'.length,
        items: 1,
        opaqueBytes: 0,
        calibratedTokens: null,
      },
      {
        name: 'conversation: user',
        group: 'input',
        tool: null,
        tokens: count('user\nhéllo\n') + count('user\nsecond\n') + count('user\n[image]\n'),
        // é is two bytes in UTF-8.
        bytes: 'user\nhéllo\n'.length + 1 + 'user\nsecond\n'.length + 'user\n[image]\n'.length,
        // Three blocks from two items.
        items: 2,
        opaqueBytes: 8,
        calibratedTokens: null,
      },
      {
        name: 'tool calls',
        group: 'input',
        tool: null,
        tokens: count('call f\n{}\n'),
        bytes: 'call f\n{}\n'.length,
        items: 1,
        opaqueBytes: 0,
        calibratedTokens: null,
      },
      {
        name: 'tool outputs',
        group: 'input',
        tool: null,
        tokens: count('output\nok\n'),
        bytes: 'output\nok\n'.length,
        items: 1,
        opaqueBytes: 0,
        calibratedTokens: null,
      },
    ]);
    const total = b.sections.reduce((a, s) => a + s.tokens, 0);
    expect(b.totalTokens).toBe(total);
    expect(b).toMatchObject({ reportedInputTokens: null, contextWindow: null, windowShare: null, calibration: null });
    expect(b.groups).toEqual([
      { group: 'tools', tokens: b.sections[0].tokens, calibratedTokens: null, bytes: b.sections[0].bytes, opaqueBytes: 0 },
      {
        group: 'input',
        tokens: total - b.sections[0].tokens,
        calibratedTokens: null,
        bytes: b.sections.slice(1).reduce((a, s) => a + s.bytes, 0),
        opaqueBytes: 8,
      },
    ]);
  });

  it('lists groups in display order, whatever order their sections come in', () => {
    const body = {
      text: { format: { type: 'json_schema', schema: {} } },
      input: [msg('user', 'hi'), msg('developer', 'late'), { type: 'additional_tools', tools: [{ type: 'function', name: 'g' }] }],
      instructions: 'Be brief.',
    };
    const b = contextBreakdown(body, none);
    expect(b.sections.map((s) => [s.name, s.group])).toEqual([
      ['instructions', 'instructions'],
      ['conversation: user', 'input'],
      ['conversation: developer', 'input'],
      ['tool:g', 'tools'],
      ['output schema', 'other'],
    ]);
    expect(b.groups.map((g) => g.group)).toEqual(['tools', 'instructions', 'input', 'other']);
    expect(b.groups.find((g) => g.group === 'input')!.tokens).toBe(count('user\nhi\n') + count('developer\nlate\n'));
  });

  it('calibrates sections and groups to the reported input, and shares the window with the report', () => {
    const body = { input: [msg('user', 'one two three'), { type: 'function_call', name: 'f', arguments: '{"a":1}' }] };
    const raw = contextBreakdown(body, none);
    const reported = raw.totalTokens + 1;
    const b = contextBreakdown(body, { reportedInputTokens: reported, contextWindow: 1000 });
    const calibrated = apportion(
      reported,
      raw.sections.map((s) => s.tokens),
    );
    expect(b.sections.map((s) => s.calibratedTokens)).toEqual(calibrated);
    expect(b.groups).toEqual([
      {
        group: 'input',
        tokens: raw.totalTokens,
        calibratedTokens: reported,
        bytes: raw.sections.reduce((a, s) => a + s.bytes, 0),
        opaqueBytes: 0,
      },
    ]);
    expect(b.calibration).toMatchObject({ scale: reported / raw.totalTokens, unaccountedTokens: 0, warning: null });
    expect(b).toMatchObject({
      totalTokens: raw.totalTokens,
      reportedInputTokens: reported,
      contextWindow: 1000,
      windowShare: reported / 1000,
    });
  });

  it('shares the window with the raw estimate when nothing was reported, and not at all without a window', () => {
    const body = { input: [msg('user', 'hello there')] };
    const b = contextBreakdown(body, { reportedInputTokens: null, contextWindow: 200 });
    expect(b.windowShare).toBe(b.totalTokens / 200);
    expect(contextBreakdown(body, { reportedInputTokens: 50, contextWindow: 0 }).windowShare).toBeNull();
  });

  it('passes the opaque bytes to the calibration warning', () => {
    const body = { input: [msg('user', [{ type: 'input_image', image_url: 'data:abcd' }])] };
    const b = contextBreakdown(body, { reportedInputTokens: 1000, contextWindow: null });
    expect(b.calibration!.warningCode).toMatchObject({ code: 'calibration.aboveOpaque', params: { opaqueBytes: 9, reported: 1000 } });
    // Above the band the sections keep their raw estimates as calibrated figures.
    expect(b.sections.map((s) => s.calibratedTokens)).toEqual(b.sections.map((s) => s.tokens));
  });

  it('breaks down an empty request to nothing', () => {
    expect(contextBreakdown({}, { reportedInputTokens: 10, contextWindow: 100 })).toEqual({
      tokenizer: 'o200k_base',
      sections: [],
      totalTokens: 0,
      reportedInputTokens: 10,
      contextWindow: 100,
      windowShare: 0.1,
      calibration: null,
      groups: [],
    });
  });
});
