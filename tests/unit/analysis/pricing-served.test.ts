import { describe, expect, it } from 'vitest';
import { analyzeExchange } from '../../../companion/analysis/analyze';
import { rollupUsage } from '../../../companion/analysis/usage-rollup';
import { PriceOverridesSchema } from '../../../companion/protocol/analysis';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { analyseAll, loadFixture, recordFrom, withUsage, type Fixture } from '../../support/records';

/** The real code-mode capture, answered by a model other than the one Codex asked for. */
function servedBy(model: string): Fixture {
  const fx = loadFixture('codemode-text-1.json');
  for (const e of fx.response_sent_by_fake_upstream!.sse_events!) {
    const r = e.response as { model?: string } | undefined;
    if (r?.model) r.model = model;
  }
  return fx;
}

describe('requested → served pricing', () => {
  it('prices the model that served the request, and says which one Codex requested', async () => {
    const record = await recordFrom(servedBy('gpt-5-codex'));
    expect(record.route.modelRequested).toBe('gpt-6.1-sol');
    expect(record.model).toBe('gpt-5-codex');
    const a = analyzeExchange(record, null);
    expect(a.cost?.model).toBe('gpt-5-codex');
    expect(a.pricing).toMatchObject({ status: 'priced', model: 'gpt-5-codex', requestedModel: 'gpt-6.1-sol' });
    expect(a.pricing!.note).toContain('priced as gpt-5-codex, the model that served the request (Codex requested gpt-6.1-sol)');
  });

  it('gives each part its own cost, and the parts sum to the total', async () => {
    const a = analyzeExchange(await recordFrom(servedBy('gpt-5-codex')), null);
    const p = a.cost!.partsUsd!;
    const u = a.cost!.parts;
    expect(p.uncachedInput).toBeCloseTo((u.uncachedInput * 1.25) / 1e6, 12);
    expect(p.output).toBeCloseTo((u.output * 10) / 1e6, 12);
    expect(p.uncachedInput + p.cachedInput + p.cacheWrite + p.output).toBeCloseTo(a.costUsd!, 12);
  });

  it('names an unknown model and how to add its price row to prices.json', async () => {
    const a = analyzeExchange(await recordFrom(loadFixture('codemode-text-1.json')), null);
    expect(a.costUsd).toBeNull();
    expect(a.pricing).toMatchObject({ status: 'unpriced', model: 'gpt-6.1-sol' });
    expect(a.pricing!.note).toContain('no price is known for gpt-6.1-sol at tier default');
    expect(a.pricing!.note).toContain('prices.json');
    // The example is a valid override file for that very model once its rates and date are filled in.
    const example = PriceOverridesSchema.parse(JSON.parse(a.pricing!.example!.replace('YYYY-MM-DD', '2026-12-01')));
    expect(example.rows[0]).toMatchObject({ model: 'gpt-6.1-sol', tier: 'default' });
  });

  it('costs 0-token exchanges $0 at any price, and never counts them as unpriced', async () => {
    const fx = withUsage(loadFixture('codemode-text-1.json'), { input: 0, cached: 0, output: 0 });
    const [zero] = analyseAll([await recordFrom(fx, { id: 'zero' })]);
    expect(zero.analysis!.pricing).toMatchObject({ status: 'zero_tokens' });
    expect(zero.costUsd).toBe(0);
    const unpriced = (await recordFrom(loadFixture('codemode-text-1.json'), { id: 'unpriced' })) as ExchangeRecord;
    const [priced] = analyseAll([unpriced]);
    // A summary stored before 0-token exchanges were priced (cost null) is not unpriced either.
    const legacy = { ...zero, id: 'legacy', costUsd: null };
    const r = rollupUsage([zero, legacy, priced]);
    expect(r).toMatchObject({ unpricedExchanges: 1, exchangesWithUsage: 3 });
    expect(r.unpricedTokens).toBe(priced.usage!.inputTokens! + priced.usage!.outputTokens!);
  });

  it('says the cost is unknown without usage, never $0', async () => {
    const fx = loadFixture('codemode-text-1.json');
    fx.response_sent_by_fake_upstream!.sse_events = fx.response_sent_by_fake_upstream!.sse_events!.filter(
      (e) => e.type !== 'response.completed',
    );
    const a = analyzeExchange(await recordFrom(fx), null);
    expect(a.costUsd).toBeNull();
    expect(a.pricing).toMatchObject({ status: 'no_usage' });
  });
});
