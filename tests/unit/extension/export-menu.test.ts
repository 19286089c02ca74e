// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ExportMenu from '../../../extension/components/panel/ExportMenu.vue';
import { useFiltersStore } from '../../../extension/stores/filters';
import { useSettingsStore } from '../../../extension/stores/settings';

let asked: URL[];
let downloads: { href: string; name: string }[];

beforeEach(async () => {
  fakeBrowser.reset();
  asked = [];
  downloads = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const u = new URL(url);
      asked.push(u);
      if (u.searchParams.get('format') === 'html' && !u.searchParams.get('session'))
        return new Response(JSON.stringify({ error: 'bad_request', message: 'an HTML export is one session: pass session' }), {
          status: 400,
        });
      return new Response('{"log":{}}', {
        status: 200,
        headers: { 'content-disposition': 'attachment; filename="codex-devtools-s-1.har"' },
      });
    }),
  );
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:export');
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ href: this.href, name: this.download });
  });
  setActivePinia(createPinia());
  await useSettingsStore().pair({ port: 8642, token: 'test-token-0123456789' });
});
afterEach(() => vi.unstubAllGlobals());

describe('the Export menu', () => {
  it('asks the companion for the list’s own filters and search, not its order, and saves the file under the name it gives', async () => {
    const filters = useFiltersStore();
    filters.setSession('s-1');
    filters.setMiss(true);
    filters.setText('parser');
    filters.toggleSort('cost');
    const w = mount(ExportMenu);
    await w.get('[data-testid="export"]').trigger('click');
    await w.get('[data-format="har"]').trigger('click');
    await flushPromises();
    expect(asked).toHaveLength(1);
    const q = asked[0].searchParams;
    expect(asked[0].pathname).toBe('/api/export');
    expect(Object.fromEntries(q)).toMatchObject({ format: 'har', session: 's-1', miss: expect.stringMatching(/^(1|true)$/), q: 'parser' });
    expect(q.has('sort')).toBe(false);
    expect(downloads).toEqual([{ href: 'blob:export', name: 'codex-devtools-s-1.har' }]);
    expect(w.find('[data-testid="export-failed"]').exists()).toBe(false);
  });

  it('offers HTML only once a session is chosen, since an HTML export is one session', async () => {
    const w = mount(ExportMenu);
    await w.get('[data-testid="export"]').trigger('click');
    expect(w.get('[data-format="html"]').attributes('disabled')).toBeDefined();
    expect(w.get('[data-format="jsonl"]').attributes('disabled')).toBeUndefined();
    useFiltersStore().setSession('s-1');
    await w.vm.$nextTick();
    expect(w.get('[data-format="html"]').attributes('disabled')).toBeUndefined();
  });

  it('says so when the companion refuses, and saves nothing', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: 'internal_error', message: 'disk' }), { status: 500 })),
    );
    const w = mount(ExportMenu);
    await w.get('[data-testid="export"]').trigger('click');
    await w.get('[data-format="jsonl"]').trigger('click');
    await flushPromises();
    expect(w.get('[data-testid="export-failed"]').text()).toBe('export failed');
    expect(downloads).toEqual([]);
  });
});
