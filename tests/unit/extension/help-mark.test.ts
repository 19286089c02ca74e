// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import HelpMark from '../../../extension/components/docs/HelpMark.vue';
import { OPEN_DOC } from '../../../extension/components/docs/sheet-api';

describe('the "?" mark', () => {
  it('opens its doc through the view around it', async () => {
    const openDoc = vi.fn();
    const w = mount(HelpMark, { props: { doc: 'prompt-caching' }, global: { provide: { [OPEN_DOC as symbol]: openDoc } } });
    await w.get('button').trigger('click');
    expect(openDoc).toHaveBeenCalledWith('prompt-caching');
    expect(w.emitted('open')).toEqual([['prompt-caching']]);
  });

  it('still reports the click when no view provides a sheet', async () => {
    const w = mount(HelpMark, { props: { doc: 'token-math', label: 'What is this?' } });
    expect(w.get('button').attributes('aria-label')).toBe('What is this?');
    await w.get('button').trigger('click');
    expect(w.emitted('open')).toEqual([['token-math']]);
  });
});
