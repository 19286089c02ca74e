import { describe, expect, it } from 'vitest';
import { ExchangeList } from '../../../extension/lib/exchange-list';
import { fakeSummary } from '../../support/extension-factories';

const ids = (l: ExchangeList) => l.newestFirst().map((s) => s.id);

describe('the in-memory exchange list', () => {
  it('takes a snapshot newest first and keeps it newest first', () => {
    const [a, b, c] = [fakeSummary(), fakeSummary(), fakeSummary()];
    const l = new ExchangeList(100);
    l.replaceAll([c, b, a]);
    expect(ids(l)).toEqual([c.id, b.id, a.id]);
  });

  it('appends a newer exchange at the head and replaces an updated one in place', () => {
    const [a, b] = [fakeSummary(), fakeSummary()];
    const l = new ExchangeList(100);
    l.replaceAll([a]);
    expect(l.upsert({ ...b, status: 'streaming' })).toBe('added');
    expect(l.upsert(b)).toBe('updated');
    expect(ids(l)).toEqual([b.id, a.id]);
    expect(l.get(b.id)?.status).toBe('completed');
  });

  it('inserts an exchange that started a little earlier than the newest in its place', () => {
    const [a, b, c] = [fakeSummary(), fakeSummary(), fakeSummary()];
    const l = new ExchangeList(100);
    l.upsert(a);
    l.upsert(c);
    l.upsert(b);
    expect(ids(l)).toEqual([c.id, b.id, a.id]);
    expect(l.get(b.id)).toBe(b);
    expect(l.get(c.id)).toBe(c);
  });

  it('ignores a streaming summary for an exchange it already holds as finished', () => {
    const a = fakeSummary();
    const l = new ExchangeList(100);
    l.upsert(a);
    expect(l.upsert({ ...a, status: 'streaming', usage: null })).toBe('ignored');
    expect(l.get(a.id)?.usage).not.toBeNull();
  });

  it('drops the oldest beyond its cap and still finds the rest by id', () => {
    const l = new ExchangeList(10);
    const all = Array.from({ length: 12 }, () => fakeSummary());
    for (const s of all) l.upsert(s);
    expect(l.trim()).toBe(3);
    expect(l.size).toBe(9);
    expect(l.get(all[2].id)).toBeUndefined();
    expect(l.get(all[3].id)).toBe(all[3]);
    expect(l.oldest()).toBe(all[3]);
    const next = fakeSummary();
    l.upsert(next);
    expect(ids(l)[0]).toBe(next.id);
    expect(l.get(all[11].id)).toBe(all[11]);
  });

  it('puts an older page behind what it holds, skipping ones it already has', () => {
    const [a, b, c, d] = [fakeSummary(), fakeSummary(), fakeSummary(), fakeSummary()];
    const l = new ExchangeList(100);
    l.replaceAll([d, c]);
    expect(l.prependOlder([c, b, a])).toBe(2);
    expect(ids(l)).toEqual([d.id, c.id, b.id, a.id]);
    expect(l.get(a.id)).toBe(a);
    expect(l.get(d.id)).toBe(d);
  });

  it('appends ten thousand live exchanges quickly', () => {
    const l = new ExchangeList(20_000);
    const many = Array.from({ length: 10_000 }, () => fakeSummary());
    const t = performance.now();
    for (const s of many) l.upsert(s);
    expect(performance.now() - t).toBeLessThan(200);
    expect(l.size).toBe(10_000);
  });
});
