import { describe, expect, it } from 'vitest';
import { onDemand } from '../../../companion/lib/on-demand';

describe('a part loaded on demand', () => {
  it('loads once for every caller, the first time one asks, and says when it has loaded', async () => {
    let loads = 0;
    const part = onDemand(async () => ({ n: ++loads }));
    expect(loads).toBe(0);
    expect(part.loaded()).toBeNull();
    const [a, b] = await Promise.all([part.get(), part.get()]);
    expect(a).toBe(b);
    expect(await part.get()).toBe(a);
    expect(loads).toBe(1);
    expect(part.loaded()).toBe(a);
  });

  it('tries a failed load again for the next caller, and each caller sees its own outcome', async () => {
    let loads = 0;
    const part = onDemand(async () => {
      if (++loads === 1) throw new Error('module missing');
      return 'api';
    });
    await expect(part.get()).rejects.toThrow('module missing');
    expect(part.loaded()).toBeNull();
    expect(await part.get()).toBe('api');
    expect(loads).toBe(2);
    expect(part.loaded()).toBe('api');
  });
});
