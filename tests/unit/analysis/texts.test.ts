import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calibrate } from '../../../companion/analysis/context';
import { requestLayout } from '../../../companion/analysis/layout';
import { priceExchange } from '../../../companion/analysis/pricing';
import { BUILTIN_PRICES } from '../../../companion/analysis/prices';
import { itemRef } from '../../../companion/analysis/item-label';
import { ENGLISH, phrase } from '../../../companion/analysis/texts';
import { TextCodeSchema } from '../../../companion/protocol/text-code';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { analyseAll, httpFixtureFiles, OLD_FIXTURES, runRecords, runsOf, UNELIDED_FIXTURES } from '../../support/records';

type Tree = { [k: string]: string | Tree };
const en = JSON.parse(fs.readFileSync('extension/locales/en.json', 'utf8')) as Tree;
const lookup = (path: string): string | undefined => {
  let node: string | Tree | undefined = en;
  for (const k of path.split('.')) node = typeof node === 'object' ? node[k] : undefined;
  return typeof node === 'string' ? node : undefined;
};
const placeholders = (s: string) => [...new Set(s.match(/\{\w+\}/g) ?? [])].sort();

/** Every record of the captured runs, analysed in order as the companion analyses them. */
async function analysedRuns(): Promise<ExchangeRecord[]> {
  const out: ExchangeRecord[] = [];
  for (const dir of [OLD_FIXTURES, UNELIDED_FIXTURES])
    for (const [run, files] of runsOf(httpFixtureFiles(dir))) out.push(...analyseAll(await runRecords(run, files)));
  return out;
}

describe('the coded sentences of the analysis', () => {
  it('each have an English message in the panel, with the same placeholders', () => {
    for (const [code, text] of Object.entries(ENGLISH)) {
      const message = lookup(`companionText.${code}`);
      expect(message, code).toBeDefined();
      expect(placeholders(message!), code).toEqual(placeholders(text));
    }
  });

  it('say in English what their parameters say, numbers as the CLI writes them', () => {
    expect(phrase('cacheWhy.miss', { cached: 0, expected: 8192, shortfall: 8192 })).toEqual({
      text: 'read 0 cached tokens where 8,192 were expected: 8,192 short',
      code: { code: 'cacheWhy.miss', params: { cached: 0, expected: 8192, shortfall: 8192 } },
    });
    expect(phrase('cacheEvidence.idleGap', { idleMs: 360_000, ttlMs: 300_000 }).text).toBe(
      '6 min 0 s idle since the previous request on this key; the cache lives about 5 min 0 s',
    );
    expect(phrase('cacheEvidence.toolsAdded', { names: { items: ['a', 'b'], more: 3 } }).text).toBe('added a, b +3 more');
  });

  it('come with every verdict, miss reason and pricing note of the captured runs, as valid codes the English matches', async () => {
    const records = await analysedRuns();
    const misses = records.filter((r) => r.analysis!.cache.miss);
    expect(records.length).toBeGreaterThan(10);
    for (const r of records) {
      const a = r.analysis!;
      expect(TextCodeSchema.parse(a.cache.whyCode), r.id).toEqual(a.cache.whyCode);
      expect(phrase(a.cache.whyCode!.code as keyof typeof ENGLISH, a.cache.whyCode!.params).text, r.id).toBe(a.cache.why);
      expect(r.cache!.whyCode).toEqual(a.cache.whyCode);
      expect(a.pricing!.noteCode, r.id).not.toBeNull();
      for (const reason of a.cache.reasons) {
        expect(reason.detailCodes, `${r.id} ${reason.code}`).not.toBeNull();
        const english = reason.detailCodes!.map((c) => phrase(c.code as keyof typeof ENGLISH, c.params).text);
        // The English keeps its own words for some fields (`effort` for reasoning_effort), so compare the count of parts.
        expect(reason.detail.split('; ').length).toBe(english.length);
      }
    }
    expect(misses.length).toBeGreaterThan(0);
  });

  it('name an unpriced model and its tier as parameters', () => {
    const { pricing } = priceExchange(BUILTIN_PRICES, {
      usage: { inputTokens: 10, cachedTokens: 0, cacheWriteTokens: null, outputTokens: 5, reasoningTokens: null, totalTokens: 15 },
      model: 'gpt-9-nobody',
      requestedModel: 'gpt-9',
      serviceTier: null,
      chatgptPlan: false,
    });
    expect(pricing.noteCode).toEqual({
      code: 'pricing.unpricedRequested',
      params: { model: 'gpt-9-nobody', tier: 'default', requested: 'gpt-9' },
    });
    expect(pricing.note).toBe(phrase('pricing.unpricedRequested', pricing.noteCode!.params).text);
  });

  it('give a calibration warning its code exactly when there is a warning', () => {
    expect(calibrate([100], 100).calibration!.warningCode).toBeNull();
    expect(calibrate([100], 1000, 40).calibration!.warningCode).toEqual({
      code: 'calibration.aboveOpaque',
      params: { reported: 1000, scale: 10, estimate: 100, unaccounted: 900, opaqueBytes: 40 },
    });
    expect(calibrate([100], 50).calibration!.warningCode!.code).toBe('calibration.below');
  });

  it('code the labels the companion words, and leave captured labels uncoded', () => {
    const layout = requestLayout({
      instructions: 'be brief',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run echo hi' }] },
        { type: 'function_call', name: 'exec_command', arguments: '{}', call_id: 'call_1' },
        { type: 'function_call_output', call_id: 'call_1', output: 'hi' },
        { type: 'reasoning', summary: [] },
        { type: 'web_search_call' },
      ],
    });
    expect(layout.entries.map((e) => [e.label, e.labelCode])).toEqual([
      ['instructions field', { code: 'entry.instructionsField', params: {} }],
      ['user: run echo hi', null],
      ['call exec_command', { code: 'entry.call', params: { name: 'exec_command' } }],
      ['output call_1', { code: 'entry.output', params: { callId: 'call_1' } }],
      ['reasoning (replayed)', { code: 'entry.reasoning', params: {} }],
      ['web_search_call', null],
    ]);
  });

  it('code the diff’s item labels the companion words, and leave captured ones uncoded', () => {
    expect(itemRef({ type: 'function_call_output', call_id: 'call_1', output: 'hi' }, 5)).toMatchObject({
      label: 'output call_1: hi',
      labelCode: { code: 'item.output', params: { callId: 'call_1', text: 'hi' } },
    });
    expect(itemRef({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run echo hi' }] }, 3)).toMatchObject({
      label: 'user: run echo hi',
      labelCode: null,
    });
  });
});
