// @vitest-environment happy-dom
import '../../support/happy-dom-node-accessors';
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import CaptureControl from '../../../extension/components/panel/CaptureControl.vue';
import { useCaptureStore } from '../../../extension/stores/capture';
import { CaptureStateSchema } from '../../../companion/protocol';

describe("the panel's capture status", () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('shows OTLP export failures with the last error, apart from capture errors', async () => {
    useCaptureStore().applyCapture(
      CaptureStateSchema.parse({
        paused: false,
        errors: 0,
        lastError: null,
        exportFailures: 3,
        exportLastError: 'ECONNREFUSED 127.0.0.1:4318',
      }),
    );
    const w = mount(CaptureControl);
    const pill = w.get('[data-testid="export-failures"]');
    expect(pill.text()).toBe('3 export failures');
    expect(pill.attributes('title')).toContain('ECONNREFUSED 127.0.0.1:4318');
    expect(w.find('[data-testid="capture-errors"]').exists()).toBe(false);
  });

  it('says nothing about export when it is off or has not failed', async () => {
    const capture = useCaptureStore();
    capture.applyCapture({ paused: false, errors: 0, lastError: null });
    const w = mount(CaptureControl);
    expect(w.find('[data-testid="export-failures"]').exists()).toBe(false);
    capture.applyCapture({ paused: false, errors: 0, lastError: null, exportFailures: 0, exportLastError: null });
    await w.vm.$nextTick();
    expect(w.find('[data-testid="export-failures"]').exists()).toBe(false);
  });
});
