import { describe, expect, it } from 'vitest';
import { ENGLISH, englishDuration, nameList, phrase, phrases } from '../../../companion/analysis/texts';

describe('the English of the coded sentences', () => {
  it('gives every code a sentence', () => {
    const empty = Object.entries(ENGLISH).filter(([, text]) => text.trim() === '');
    expect(empty).toEqual([]);
    expect(Object.keys(ENGLISH).length).toBeGreaterThan(60);
  });

  it('fills in parameters by name, and leaves unknown placeholders as they are', () => {
    expect(phrase('cacheEvidence.fieldChanged', { field: 'model', from: 'a', to: 'b' })).toEqual({
      text: 'model a → b',
      code: { code: 'cacheEvidence.fieldChanged', params: { field: 'model', from: 'a', to: 'b' } },
    });
    expect(phrase('cacheEvidence.fieldChanged', { field: 'model' }).text).toBe('model {from} → {to}');
    expect(phrase('entry.outputBare')).toEqual({ text: 'output', code: { code: 'entry.outputBare', params: {} } });
  });

  it('puts the English words in place of a parameter when given, keeping the parameter in the code', () => {
    const p = phrase('cacheEvidence.fieldChanged', { field: 'reasoning_effort', from: '', to: 'high' }, { field: 'effort', from: 'none' });
    expect(p).toEqual({
      text: 'effort none → high',
      code: { code: 'cacheEvidence.fieldChanged', params: { field: 'reasoning_effort', from: '', to: 'high' } },
    });
  });

  it('writes numbers with thousands separators, durations for names ending in Ms, and the scale with two decimals below 10', () => {
    expect(phrase('cacheWhy.hit', { cached: 1234567, expected: 0 }).text).toBe('read 1,234,567 cached tokens where 0 were expected');
    expect(phrase('cacheEvidence.idleGap', { idleMs: 59_400, ttlMs: 60_000 }).text).toBe(
      '59 s idle since the previous request on this key; the cache lives about 1 min 0 s',
    );
    const scaled = (scale: number) => phrase('calibration.below', { reported: 1, scale, estimate: 2 }).text;
    expect(scaled(0.5)).toBe(
      'the reported input (1) is ×0.50 the estimate (2): sections are scaled down that much; the raw view is the one to trust',
    );
    expect(scaled(9.999)).toContain('×10.00 ');
    expect(scaled(10)).toContain('×10 ');
    expect(scaled(12.6)).toContain('×13 ');
    // Other numbers are not durations or scales, whatever their size.
    expect(phrase('cacheWhy.coldBelowMinimum', { minimum: 1024 }).text).toBe(
      'nothing cached yet: the previous request was below the 1,024 tokens OpenAI starts caching at',
    );
  });

  it('writes lists with a count of the names left out', () => {
    expect(phrase('cacheEvidence.toolsRemoved', { names: { items: ['a', 'b'], more: 0 } }).text).toBe('removed a, b');
    expect(phrase('cacheEvidence.toolsChanged', { names: { items: ['a'], more: 2 } }).text).toBe('changed a +2 more');
    expect(phrase('cacheEvidence.toolsChanged', { names: { items: ['a', 'b'], more: 1 } }).text).toBe('changed a, b +1 more');
  });
});

describe('englishDuration', () => {
  it('says seconds below a minute, minutes and seconds from a minute on', () => {
    expect(englishDuration(0)).toBe('0 s');
    expect(englishDuration(1_499)).toBe('1 s');
    expect(englishDuration(1_500)).toBe('2 s');
    expect(englishDuration(59_499)).toBe('59 s');
    expect(englishDuration(59_500)).toBe('1 min 0 s');
    expect(englishDuration(125_000)).toBe('2 min 5 s');
    expect(englishDuration(3_600_000)).toBe('60 min 0 s');
  });
});

describe('phrases', () => {
  it('joins several sentences with semicolons and keeps their codes in order', () => {
    const a = phrase('cacheEvidence.toolsAdded', { names: { items: ['x'], more: 0 } });
    const b = phrase('cacheEvidence.instructionsField');
    expect(phrases([a, b])).toEqual({ text: 'added x; instructions field changed', codes: [a.code, b.code] });
    expect(phrases([])).toEqual({ text: '', codes: [] });
  });
});

describe('nameList', () => {
  it('keeps at most six names by default and counts the rest', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    expect(nameList(names)).toEqual({ items: ['a', 'b', 'c', 'd', 'e', 'f'], more: 2 });
    expect(nameList(names.slice(0, 6))).toEqual({ items: ['a', 'b', 'c', 'd', 'e', 'f'], more: 0 });
    expect(nameList(names, 3)).toEqual({ items: ['a', 'b', 'c'], more: 5 });
    expect(nameList([], 3)).toEqual({ items: [], more: 0 });
  });
});
