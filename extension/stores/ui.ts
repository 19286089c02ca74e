/** Panel view state: which view and detail tab are open, the token estimate shown, and the open doc. */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { LiveTool } from '@/components/docs/sheet-api';

export type PanelView = 'exchanges' | 'sessions';

/** The detail tabs, in the order the panel shows them. */
export const DETAIL_TABS = ['context', 'response', 'diff', 'cache', 'usage', 'headers', 'raw'] as const;
export type DetailTab = (typeof DETAIL_TABS)[number];

/** `calibrated`: scaled so sections sum to the reported input; `raw`: the o200k estimate of each section's text. */
export type TokenView = 'calibrated' | 'raw';

export interface OpenDocState {
  doc: string;
  liveTool: LiveTool | null;
}

export const useUiStore = defineStore('ui', () => {
  const view = ref<PanelView>('exchanges');
  const tab = ref<DetailTab>('context');
  const tokenView = ref<TokenView>('calibrated');
  const doc = shallowRef<OpenDocState | null>(null);

  return {
    view,
    tab,
    tokenView,
    doc,
    setView: (v: PanelView) => (view.value = v),
    setTab: (t: DetailTab) => (tab.value = t),
    setTokenView: (v: TokenView) => (tokenView.value = v),
    openDoc: (name: string, liveTool: LiveTool | null = null) => (doc.value = { doc: name, liveTool }),
    closeDoc: () => (doc.value = null),
  };
});
