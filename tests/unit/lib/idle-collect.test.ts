import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { engineGc, IdleCollector } from '../../../companion/lib/idle-collect';

describe('the capture worker collects its heap once a large intake pauses', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('collects once, after the intake passed the threshold and paused for the idle time', () => {
    const gc = vi.fn();
    const c = new IdleCollector(gc, { afterBytes: 1000, idleMs: 250 });
    c.took(600);
    vi.advanceTimersByTime(1000);
    expect(gc).not.toHaveBeenCalled(); // below the threshold: nothing worth collecting
    c.took(600);
    vi.advanceTimersByTime(249);
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(gc).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it('waits while bytes keep arriving, and counts afresh after a collection', () => {
    const gc = vi.fn();
    const c = new IdleCollector(gc, { afterBytes: 1000, idleMs: 250 });
    for (let i = 0; i < 20; i++) {
      c.took(200);
      vi.advanceTimersByTime(200);
    }
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(gc).toHaveBeenCalledTimes(1);
    c.took(900);
    vi.advanceTimersByTime(1000);
    expect(gc).toHaveBeenCalledTimes(1);
    c.took(100);
    vi.advanceTimersByTime(250);
    expect(gc).toHaveBeenCalledTimes(2);
  });

  it('waits while what was taken in is still worked on, then collects once it is done', () => {
    const gc = vi.fn();
    let working = true;
    const c = new IdleCollector(gc, { afterBytes: 1000, idleMs: 250, busy: () => working });
    c.took(1200);
    vi.advanceTimersByTime(1000);
    expect(gc).not.toHaveBeenCalled(); // the intake paused, but its bodies are still being stored
    working = false;
    vi.advanceTimersByTime(249);
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it('collects nothing once stopped', () => {
    const gc = vi.fn();
    const c = new IdleCollector(gc, { afterBytes: 10, idleMs: 250 });
    c.took(100);
    c.stop();
    vi.advanceTimersByTime(1000);
    expect(gc).not.toHaveBeenCalled();
  });
});

describe("the engine's collection", () => {
  it('frees what nothing holds any more', async () => {
    const gc = engineGc();
    const bulk = () => new WeakRef(Array.from({ length: 200 }, () => Array.from({ length: 10_000 }, (_, i) => i)));
    const held = bulk();
    // A WeakRef keeps its target through the job that made it (or read it): collect in a later one.
    await new Promise((r) => setTimeout(r, 0));
    gc();
    expect(held.deref()).toBeUndefined();
  });
});
