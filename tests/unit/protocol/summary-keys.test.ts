import { describe, expect, it } from 'vitest';
import { ExchangeSummarySchema } from '../../../companion/protocol/exchange';
import { SUMMARY_KEYS } from '../../../companion/protocol/summary-keys';

describe('the summary fields the store splits records by', () => {
  it("are the summary schema's fields, in its order", () => {
    expect([...SUMMARY_KEYS]).toEqual(Object.keys(ExchangeSummarySchema.shape));
  });
});
