// @vitest-environment happy-dom
import '../../support/happy-dom-node-accessors';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import OptionsApp from '../../../extension/components/options/OptionsApp.vue';
import { UI_LOCALES } from '../../../extension/lib/i18n';
import { readSettings } from '../../../extension/lib/settings-storage';

let pinia: Pinia;
let wrapper: VueWrapper | undefined;

beforeEach(() => {
  fakeBrowser.reset();
  pinia = createPinia();
  setActivePinia(pinia);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ error: 'unauthorized', message: 'wrong token' }), { status: 401 })),
  );
});
afterEach(() => {
  wrapper?.unmount();
  vi.unstubAllGlobals();
  history.replaceState(null, '', '/options.html');
});

async function open(hash = ''): Promise<VueWrapper> {
  history.replaceState(null, '', `/options.html${hash}`);
  wrapper = mount(OptionsApp, { global: { plugins: [pinia] }, attachTo: document.body });
  await flushPromises();
  return wrapper;
}

describe('the options page', () => {
  it('pairs from the link hash, stores port and token, and clears the hash', async () => {
    const w = await open('#port=9123&token=abcdefghijklmnop0123');
    expect(await readSettings()).toMatchObject({ port: 9123, token: 'abcdefghijklmnop0123' });
    expect(location.hash).toBe('');
    expect(w.get('[data-testid="pairing-result"]').text()).toContain('port 9123');
  });

  it('honours a second pairing link opened in the same tab, where only the hash changes', async () => {
    const w = await open('#port=9123&token=abcdefghijklmnop0123');
    location.hash = '#port=9555&token=second-token-0123456789';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await flushPromises();
    expect(await readSettings()).toMatchObject({ port: 9555, token: 'second-token-0123456789' });
    expect(location.hash).toBe('');
    expect(w.get('[data-testid="pairing-result"]').text()).toContain('port 9555');
  });

  it('names what is wrong with a broken link and stores nothing', async () => {
    const w = await open('#port=9123&token=x');
    expect(w.get('[data-testid="pairing-result"]').text()).toContain('token');
    expect((await readSettings()).token).toBeNull();
  });

  it('checks a hand-entered token before saving it and reports the companion’s answer', async () => {
    const w = await open();
    await w.get('[data-testid="port-input"]').setValue('8642');
    await w.get('[data-testid="token-input"]').setValue('zz');
    await w.get('[data-testid="test-connection"]').trigger('click');
    expect(w.get('[data-testid="test-result"]').text()).toContain('token looks wrong');
    await w.get('[data-testid="token-input"]').setValue('abcdefghijklmnop0123');
    await w.get('[data-testid="pairing-form"]').trigger('submit');
    await flushPromises();
    expect(await readSettings()).toMatchObject({ port: 8642, token: 'abcdefghijklmnop0123' });
    expect(w.get('[data-testid="test-result"]').text()).toContain('refused the pairing token');
  });

  it('pairs from a pasted pairing code, clears the box and reports the companion’s answer', async () => {
    const w = await open();
    const input = w.get('[data-testid="pairing-code-input"]');
    await input.setValue('9124:abcdefghijklmnop0123');
    await w.get('[data-testid="pairing-code-form"]').trigger('submit');
    await flushPromises();
    expect(await readSettings()).toMatchObject({ port: 9124, token: 'abcdefghijklmnop0123' });
    expect((input.element as HTMLInputElement).value).toBe('');
    expect(w.get('[data-testid="pairing-code-result"]').text()).toContain('port 9124');
    expect(w.get('[data-testid="pairing-code-result"]').text()).toContain('refused the pairing token');
  });

  it('stores nothing from a pasted code that is not one', async () => {
    const w = await open();
    await w.get('[data-testid="pairing-code-input"]').setValue('abcdefghijklmnop0123');
    await w.get('[data-testid="pairing-code-form"]').trigger('submit');
    await flushPromises();
    expect((await readSettings()).token).toBeNull();
    expect(w.get('[data-testid="pairing-code-result"]').text()).toContain('not a pairing code');
  });

  it('offers every UI language and stores the choice', async () => {
    const w = await open();
    const select = w.get('[data-testid="doc-language"]');
    expect(select.findAll('option').map((o) => o.attributes('value'))).toEqual(['auto', ...UI_LOCALES]);
    // Each language is named in itself, so a reader finds theirs whatever the page shows now.
    expect(select.findAll('option').map((o) => o.text())).toContain('العربية');
    await select.setValue('pt-BR');
    await flushPromises();
    expect((await readSettings()).docLanguage).toBe('pt-BR');
  });

  it('shows the open doc in the language chosen, switching as the choice changes', async () => {
    const w = await open();
    await w.get('[data-testid="doc-language"]').setValue('en');
    await flushPromises();
    await w.get('[data-testid="open-pairing-doc"]').trigger('click');
    expect(w.get('[data-testid="doc-title"]').text()).toBe('Pairing: what the companion can and cannot see');
    await w.get('[data-testid="doc-language"]').setValue('ru');
    await flushPromises();
    expect(w.get('[data-testid="doc-title"]').text()).toBe('Сопряжение: что компаньон видит и чего не видит');
    expect(w.find('[data-testid="doc-fallback"]').exists()).toBe(false);
  });

  it('shows the doc in English, with a note, for a UI language no doc is written in', async () => {
    const w = await open();
    await w.get('[data-testid="doc-language"]').setValue('ar');
    await flushPromises();
    await w.get('[data-testid="open-pairing-doc"]').trigger('click');
    expect(w.get('[data-testid="doc-title"]').text()).toBe('Pairing: what the companion can and cannot see');
    expect(w.get('[data-testid="doc-fallback"] [lang="ar"]').text()).toBe('العربية');
  });
});
