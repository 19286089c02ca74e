// @vitest-environment happy-dom
import '../../support/happy-dom-node-accessors';
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import ConnectionStatus from '../../../extension/components/common/ConnectionStatus.vue';
import { useConnectionStore } from '../../../extension/stores/connection';

describe('the connection line', () => {
  it('reads "connected (companion <version>)", with the space kept between label and version', () => {
    const pinia = createPinia();
    setActivePinia(pinia);
    const connection = useConnectionStore();
    connection.status = 'connected';
    connection.companionVersion = '0.1.0';
    const w = mount(ConnectionStatus, { global: { plugins: [pinia] } });
    expect(w.get('[data-testid="status"]').text()).toBe('connected (companion 0.1.0)');
  });
});
