/**
 * @module Published OpenAI prices (USD per 1M tokens) as data, one row per model and service
 * tier, each with the page it was read from and when. A model or tier without a row here (or in
 * the user's override file) is unpriced: its cost is unknown, never 0. Codex 0.169 catalog models
 * whose prices had no source we could read (gpt-6.1-sol, gpt-6-astra, gpt-5.6-sol, gpt-5.5, …)
 * are left out on purpose.
 */
import type { PriceRow, PriceTable, Rates } from '../protocol/analysis';

const READ_ON = '2026-11-29';

const rates = (inputPer1M: number, cachedInputPer1M: number, cacheWritePer1M: number | null, outputPer1M: number): Rates => ({
  inputPer1M,
  cachedInputPer1M,
  cacheWritePer1M,
  outputPer1M,
});

/** Rounded to a millionth of a dollar per 1M tokens, so scaled rates read as published (1.8, not 1.7999…). */
const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** Scales a row's rates: Flex at 0.5×, Fast (priority) at 2×, long context 2× on the input side and 1.5× on output. */
const scale = (r: Rates, inputSide: number, output: number): Rates =>
  rates(
    round(r.inputPer1M * inputSide),
    round(r.cachedInputPer1M * inputSide),
    r.cacheWritePer1M === null ? null : round(r.cacheWritePer1M * inputSide),
    round(r.outputPer1M * output),
  );

/** Standard, Flex and Fast rows of a GPT-6-style page: long context above 272K (2× / 1.5×), Flex 50 %, Fast 2×. */
function gpt6Family(
  model: string,
  standard: Rates,
  source: string,
  tiers: ('default' | 'flex' | 'priority')[],
  note: string | null = null,
): PriceRow[] {
  const factor = { default: 1, flex: 0.5, priority: 2 } as const;
  return tiers.map((tier) => {
    const base = scale(standard, factor[tier], factor[tier]);
    return {
      model,
      aliases: [],
      tier,
      rates: base,
      longContext: { aboveInputTokens: 272_000, rates: scale(base, 2, 1.5) },
      source,
      asOf: READ_ON,
      note:
        [note, tier === 'default' ? null : `${tier === 'flex' ? 'Flex at 50 %' : 'Fast (priority) at 2×'} of Standard, as the page states.`]
          .filter(Boolean)
          .join(' ') || null,
    };
  });
}

/** The GPT-5.6 pages give cache writes as 1.25× input and long context as "2× input, 1.5× output". */
const GPT56_NOTE =
  'Cache writes at 1.25× input and long context at 2× input / 1.5× output, as the page states; cached input is doubled with input above 272K (assumed). No Flex or Fast rates published there.';

export const BUILTIN_PRICES: PriceTable = {
  rows: [
    {
      model: 'gpt-5-codex',
      aliases: [],
      tier: 'default',
      rates: rates(1.25, 0.125, null, 10),
      longContext: null,
      source: 'https://developers.openai.com/api/docs/models/gpt-5-codex',
      asOf: READ_ON,
      note: 'No cache-write price published: cache writes are billed as input.',
    },
    {
      model: 'gpt-5-codex',
      aliases: [],
      tier: 'priority',
      rates: rates(2.5, 0.25, null, 20),
      longContext: null,
      source: 'https://openai.com/api-priority-processing/',
      asOf: READ_ON,
      note: 'Priority processing, as quoted in codex-protocol.md §8; the page says it excludes long context.',
    },
    ...gpt6Family('gpt-6-sol', rates(2, 0.2, 2.5, 10), 'https://developers.openai.com/api/docs/models/gpt-6-sol', [
      'default',
      'flex',
      'priority',
    ]),
    ...gpt6Family('gpt-6-luna', rates(0.1, 0.01, 0.125, 0.5), 'https://developers.openai.com/ja-JP/api/docs/models/gpt-6-luna', [
      'default',
      'flex',
      'priority',
    ]),
    ...gpt6Family('gpt-6.2-sol', rates(2, 0.1, 2.5, 10), 'https://developers.openai.com/api/docs/models/gpt-6.2-sol', [
      'default',
      'priority',
    ]),
    ...gpt6Family(
      'gpt-5.6-terra',
      rates(2, 0.2, 2.5, 12),
      'https://developers.openai.com/de-DE/api/docs/models/gpt-5.6-terra',
      ['default'],
      GPT56_NOTE,
    ),
    ...gpt6Family(
      'gpt-5.6-luna',
      rates(0.2, 0.02, 0.25, 1.2),
      'https://developers.openai.com/api/docs/models/gpt-5.6-luna',
      ['default'],
      GPT56_NOTE,
    ),
  ],
};
