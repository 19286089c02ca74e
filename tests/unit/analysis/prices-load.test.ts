import { describe, expect, it } from 'vitest';

// Imported inside the test, not at the top of the file: the table is built when the module loads,
// so a table that cannot be built fails this test instead of only stopping the file from loading.
describe('loading the built-in price table', () => {
  it('builds one row per model and published tier, each with its rates', async () => {
    const { BUILTIN_PRICES } = await import('../../../companion/analysis/prices');
    expect(BUILTIN_PRICES.rows).toHaveLength(12);
    for (const row of BUILTIN_PRICES.rows)
      expect(Object.keys(row.rates).sort()).toEqual(['cacheWritePer1M', 'cachedInputPer1M', 'inputPer1M', 'outputPer1M']);
  });
});
