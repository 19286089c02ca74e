// @vitest-environment happy-dom
import '../../support/happy-dom-node-accessors';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeRecord } from '../../../companion/protocol';
import { withLayout } from '../../../companion/analysis/layout';
import PanelApp from '../../../extension/components/panel/PanelApp.vue';
import { matchesQuery } from '../../../companion/protocol';
import { useDetailStore } from '../../../extension/stores/detail';
import { useExchangesStore } from '../../../extension/stores/exchanges';
import { useSettingsStore } from '../../../extension/stores/settings';
import { useUiStore } from '../../../extension/stores/ui';
import { loadFixture as loadHttpFixture } from '../../support/fixtures';
import { replayFixture } from '../../support/flows';
import { analyseAll, loadFixture, recordFrom } from '../../support/records';

const ATTACK = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b>bold?</b>';

let record: ExchangeRecord;
let pinia: Pinia;
let wrapper: VueWrapper | undefined;

beforeAll(async () => {
  const fx = loadFixture('codemode-text-1.json');
  // Captured content is untrusted: the user's prompt and the model's answer both carry markup.
  fx.request!.body.input.at(-1).content[0].text = `please echo ${ATTACK}`;
  for (const e of fx.response_sent_by_fake_upstream!.sse_events ?? []) {
    const out = (e.response as { output?: { content?: { text?: string }[] }[] } | undefined)?.output;
    for (const item of out ?? []) for (const part of item.content ?? []) part.text = `Answer: ${ATTACK}`;
    const item = (e as { item?: { content?: { text?: string }[] } }).item;
    for (const part of item?.content ?? []) part.text = `Answer: ${ATTACK}`;
  }
  [record] = analyseAll([await recordFrom(fx, { id: 'x-attack' })]);
});

async function openDetail(shown: ExchangeRecord = record): Promise<VueWrapper> {
  vi.stubGlobal(
    'fetch',
    // As GET /api/exchanges/:id serves it: with the request's layout.
    vi.fn(async () => new Response(JSON.stringify(withLayout(shown)), { status: 200, headers: { 'content-type': 'application/json' } })),
  );
  await useSettingsStore().pair({ port: 8642, token: 'test-token-0123456789' });
  useExchangesStore().applySnapshot([shown], { keepInFlight: false });
  wrapper = mount(PanelApp, { global: { plugins: [pinia] }, attachTo: document.body });
  await useDetailStore().select(shown.id);
  await flushPromises();
  return wrapper;
}

async function tab(w: VueWrapper, name: string): Promise<void> {
  await w.get(`[data-tab="${name}"]`).trigger('click');
  await flushPromises();
}

beforeEach(() => {
  fakeBrowser.reset();
  pinia = createPinia();
  setActivePinia(pinia);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
  vi.unstubAllGlobals();
  delete (window as { __pwned?: unknown }).__pwned;
});

describe('the detail pane', () => {
  it('offers its tabs in the specified order', async () => {
    const w = await openDetail();
    expect(w.findAll('[data-testid="detail-tab"]').map((t) => t.text())).toEqual([
      'Context',
      'Response',
      'Diff',
      'Cache',
      'Usage & cost',
      'Headers',
      'Raw',
    ]);
  });

  it('lays out the Context tab as Tools, then Instructions, then Input', async () => {
    const w = await openDetail();
    const groups = w.findAll('[data-testid^="context-group-"]').map((g) => g.attributes('data-testid'));
    expect(groups).toEqual(['context-group-tools', 'context-group-instructions', 'context-group-input']);
    expect(w.get('[data-testid="context-group-tools"]').text()).toContain('exec');
    expect(w.get('[data-testid="context-group-tools"]').text()).toContain('11 nested tools');
    expect(w.get('[data-testid="context-group-input"]').text()).toContain('environment context');
    expect(w.get('[data-testid="window-unknown"]').text()).toContain('unknown');
  });

  it('shows the Context tab of a streaming row from its request, and the tabs that need the end say it streams', async () => {
    // As the companion serves an exchange whose response still streams: request captured, no usage or analysis yet.
    const live: ExchangeRecord = {
      ...record,
      id: 'x-live',
      status: 'streaming',
      endedAt: null,
      usage: null,
      costUsd: null,
      cache: null,
      analysis: undefined,
      response: { ...record.response, output: [], events: [] },
    };
    const w = await openDetail(live);
    expect(w.get('[data-testid="context-group-tools"]').text()).toContain('11 nested tools');
    expect(w.get('[data-testid="context-group-input"]').text()).toContain('environment context');
    expect(w.get('[data-testid="no-estimate"]').text()).toBe(
      'Token estimates arrive when the response ends: the companion analyses the exchange then.',
    );
    await tab(w, 'cache');
    expect(w.find('[data-testid="context-tab"]').exists()).toBe(false);
    expect(w.text()).toContain('This response is still streaming.');
  });

  it('shows markup in a captured answer as text, and never runs it', async () => {
    const w = await openDetail();
    await tab(w, 'response');
    const out = w.get('[data-testid="response-tab"]');
    expect(out.text()).toContain(`Answer: ${ATTACK}`);
    expect(out.findAll('script, img, b')).toHaveLength(0);
    expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
  });

  it('shows markup in a captured prompt as text in the Context tab', async () => {
    const w = await openDetail();
    const prompt = w.findAll('[data-testid="entry-item"]').find((e) => e.text().includes('please echo'))!;
    await prompt.get('.exp-toggle').trigger('click');
    expect(prompt.text()).toContain(`please echo ${ATTACK}`);
    expect(w.get('[data-testid="context-tab"]').findAll('script, img, b')).toHaveLength(0);
  });

  it('opens a tool’s doc from its "?" with the description Codex sent in this exchange', async () => {
    const w = await openDetail();
    const exec = w.findAll('[data-testid="tool-item"]').find((t) => t.find('.tool-name').text() === 'exec')!;
    await exec.get('.exp-toggle').trigger('click');
    const nested = exec.findAll('[data-testid="tool-item"]').find((t) => t.find('.tool-name').text() === 'exec_command')!;
    await nested.get('.help-mark').trigger('click');
    expect(useUiStore().doc?.doc).toBe('tool.exec_command');
    const sheet = w.get('[data-testid="doc-sheet"]');
    expect(sheet.get('[data-testid="doc-title"]').text()).toBe('exec_command');
    expect(sheet.get('[data-testid="doc-live-description"]').text()).toContain('exec_command');
  });

  it('opens a concept doc from a "?" mark', async () => {
    const w = await openDetail();
    await tab(w, 'cache');
    await w.get('[data-testid="cache-tab"] [data-doc="prompt-caching"]').trigger('click');
    expect(w.get('[data-testid="doc-title"]').text()).toBe('Prompt caching and cache misses');
  });

  it('says the cost is unknown for an unpriced model, and shows the wire usage with parts marked as parts', async () => {
    const w = await openDetail();
    await tab(w, 'usage');
    const u = w.get('[data-testid="usage-tab"]');
    expect(u.get('[data-testid="cost-unknown"]').text()).toContain('no price is known for gpt-6.1-sol');
    expect(u.get('[data-testid="cost-unknown"]').text()).toContain('prices.json');
    expect(u.get('[data-testid="price-row-example"]').text()).toContain('"model": "gpt-6.1-sol"');
    expect(u.get('[data-field="cached"]').text()).toBe(String(record.usage!.cachedTokens!.toLocaleString('en-US')));
    expect(u.text()).toContain('part of input_tokens');
  });

  it('calls the cache verdict of a 429 that never reached the model "not applicable", with its why, in the Cache tab and the row', async () => {
    const [refused] = analyseAll([await replayFixture(loadHttpFixture('d-http429-usage-limit-1'), { id: 'x-429' })]);
    const w = await openDetail(refused);
    await tab(w, 'cache');
    const verdict = w.get('[data-testid="cache-verdict"]');
    expect(verdict.text()).toBe('not applicable');
    expect(w.get('[data-testid="cache-why"]').text()).toContain('HTTP 429');
    expect(w.find('[data-testid="cache-reasons"]').exists()).toBe(false);
    expect(w.get('[data-testid="cache-tab"]').text()).not.toContain('no miss');
    const row = w.get('[data-testid="exchange-row"] [data-col="cache"]');
    expect(row.text()).toBe('n/a');
    expect(row.attributes('title')).toContain('not applicable: HTTP 429');
  });

  it('shows "requested → served" when another model answered, prices the served one and says so, and finds it by either', async () => {
    const fx = loadFixture('codemode-text-1.json');
    for (const e of fx.response_sent_by_fake_upstream!.sse_events ?? []) {
      const r = e.response as { model?: string } | undefined;
      if (r?.model) r.model = 'gpt-5-codex';
    }
    const [served] = analyseAll([await recordFrom(fx, { id: 'x-served' })]);
    const w = await openDetail(served);
    expect(w.get('[data-testid="exchange-row"] [data-col="model"]').text()).toBe('gpt-6.1-sol → gpt-5-codex');
    expect(w.get('[data-testid="detail-model"]').text()).toBe('gpt-6.1-sol → gpt-5-codex');
    await tab(w, 'usage');
    expect(w.get('[data-testid="priced-as"]').text()).toContain(
      'priced as gpt-5-codex, the model that served the request (Codex requested gpt-6.1-sol)',
    );
    expect(w.get('[data-testid="cost-total"]').text()).toMatch(/^\$/);
    // The list's model filter finds it by either name, as the store's does.
    for (const model of ['gpt-6.1-sol', 'gpt-5-codex']) expect(matchesQuery(served, { model })).toBe(true);
    expect(matchesQuery(served, { model: 'gpt-4o' })).toBe(false);
  });

  it('shows the model alone when the one that answered is the one requested', async () => {
    const w = await openDetail();
    expect(w.get('[data-testid="exchange-row"] [data-col="model"]').text()).toBe('gpt-6.1-sol');
  });

  it('shows what no section accounts for as "unaccounted" and warns of a calibration far from the estimate, offering the raw view', async () => {
    const [big] = analyseAll([await recordFrom(loadFixture('e-compaction-local-1.json'), { id: 'x-big' })]);
    const c = big.analysis!.context!;
    const w = await openDetail(big);
    expect(w.get('[data-testid="calibration-warning"]').text()).toContain('250,000');
    expect(w.get('[data-testid="context-unaccounted"]').text()).toContain(
      `${c.calibration!.unaccountedTokens.toLocaleString('en-US')} tok`,
    );
    await w.get('[data-testid="show-raw"]').trigger('click');
    expect(useUiStore().tokenView).toBe('raw');
    expect(w.find('[data-testid="context-unaccounted"]').exists()).toBe(false);
  });

  it('explains "unaccounted" from the bucket itself: its "?" opens the section of the context doc about it', async () => {
    const [big] = analyseAll([await recordFrom(loadFixture('e-compaction-local-1.json'), { id: 'x-big' })]);
    const w = await openDetail(big);
    await w.get('[data-testid="context-unaccounted"] [data-doc="context-layout"]').trigger('click');
    await flushPromises();
    const sheet = w.get('[data-testid="doc-sheet"]');
    expect(sheet.get('[data-testid="doc-title"]').text()).toBe('Context layout: Tools, Instructions, Input');
    expect(sheet.text()).toContain('Unaccounted tokens');
    expect(sheet.text()).toContain('between ×0.67 and ×1.5');
    expect(w.get('[data-testid="calibration-warning"] [data-doc="context-layout"]').attributes('aria-label')).toBe(
      'What “unaccounted” means, and when to trust the raw view',
    );
  });

  it('shows the uncached input the companion counts, even when the cache field was not reported', async () => {
    const fx = loadFixture('a-plain-text-1.json');
    for (const e of fx.response_sent_by_fake_upstream!.sse_events!)
      delete (e.response as { usage?: { input_tokens_details?: unknown } } | undefined)?.usage?.input_tokens_details;
    const [r] = analyseAll([await recordFrom(fx, { id: 'x-nocache' })]);
    expect(r.analysis!.usage!.uncachedInput).toBe(5000);
    const w = await openDetail(r);
    await tab(w, 'usage');
    expect(w.get('[data-testid="usage-tab"] [data-field="uncached"]').text()).toBe('5,000');
    expect(w.get('[data-testid="usage-tab"] [data-field="cached"]').text()).toBe('—');
  });
});
