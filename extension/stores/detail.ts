/**
 * The selected exchange: its full record, fetched on selection only (records can be megabytes),
 * and while it streams, its output items' text as it arrives (`exchange/subscribe` makes progress
 * carry it) and the record as it stands (request and layout: the Context tab shows them before the end).
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef } from 'vue';
import type { ExchangeRecord, ExchangeSummary, LiveItemDelta } from '../../companion/protocol';
import type { LiveTool } from '@/components/docs/sheet-api';
import { ApiError } from '@/lib/api-error';
import { tr } from '@/lib/i18n';
import { applyLiveDeltas, type LiveOutputItem } from '@/lib/live-output';
import { liveToolIndex } from '@/lib/live-tools';
import { toolKey } from '@/lib/tool-keys';
import { useConnectionStore } from './connection';
import { useExchangesStore } from './exchanges';
import { useSettingsStore } from './settings';

/** Recently opened records, so flipping between rows does not refetch. */
const CACHE_SIZE = 12;

export const useDetailStore = defineStore('detail', () => {
  const settings = useSettingsStore();
  const selectedId = ref<string | null>(null);
  const record = shallowRef<ExchangeRecord | null>(null);
  const loading = ref(false);
  const error = ref<string | null>(null);
  /** Output items streamed so far for the selected exchange (reasoning, tool calls, text). */
  const liveItems = ref<LiveOutputItem[]>([]);
  const cache = new Map<string, ExchangeRecord>();
  let subscribed: string | null = null;

  /** The selected request's tools as the companion laid them out, for the Context tab and the doc sheet. */
  const tools = computed(() => markRaw(record.value?.layout?.tools ?? []));
  /** The selected request's tools by doc key, for the doc sheet's "as Codex sent it". */
  const liveTools = computed(() => markRaw(liveToolIndex(tools.value)));

  function liveToolFor(namespace: string | null, name: string): LiveTool | null {
    return liveTools.value.get(toolKey({ namespace, name })) ?? null;
  }
  let request = 0;

  function remember(r: ExchangeRecord): void {
    cache.delete(r.id);
    cache.set(r.id, markRaw(r));
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }

  function subscribe(id: string | null): void {
    const connection = useConnectionStore();
    if (subscribed && subscribed !== id) connection.send({ type: 'exchange/unsubscribe', id: subscribed });
    if (id && subscribed !== id) connection.send({ type: 'exchange/subscribe', id });
    subscribed = id;
  }

  /**
   * Loads the record. `streaming`: the record as it stands, which is a bonus (the Response tab
   * runs on live text), so failing to read it is no error; it is fetched again when it ends.
   */
  async function fetchRecord(id: string, streaming = false): Promise<void> {
    const mine = ++request;
    loading.value = true;
    error.value = null;
    try {
      const r = await settings.api.exchange(id);
      if (mine !== request) return;
      if (streaming) return void (record.value = markRaw(r));
      remember(r);
      record.value = cache.get(id) ?? r;
    } catch (err) {
      if (mine !== request || streaming) return;
      error.value =
        err instanceof ApiError && err.type === 'not_found' ? tr('detail.gone') : err instanceof Error ? err.message : String(err);
    } finally {
      if (mine === request) loading.value = false;
    }
  }

  /** Opens an exchange. A streaming one is read as it stands (request and layout) and read again when it ends. */
  async function select(id: string | null): Promise<void> {
    if (id === selectedId.value) return;
    selectedId.value = id;
    record.value = null;
    error.value = null;
    liveItems.value = [];
    request++;
    loading.value = false;
    if (!id) return subscribe(null);
    const summary = useExchangesStore().get(id);
    if (summary?.status === 'streaming') {
      subscribe(id);
      return fetchRecord(id, true);
    }
    subscribe(null);
    const cached = cache.get(id);
    if (cached) record.value = cached;
    else await fetchRecord(id);
  }

  function applyItems(id: string, deltas: readonly LiveItemDelta[]): void {
    if (id === selectedId.value) applyLiveDeltas(liveItems.value, deltas);
  }

  /** A newer summary of the selected exchange: when it has ended (or learned a fact), load its record. */
  function exchangeChanged(s: ExchangeSummary): void {
    cache.delete(s.id);
    if (s.id !== selectedId.value || s.status === 'streaming') return;
    subscribe(null);
    // The record read while it streamed has no response or analysis: it must not stand for the finished one.
    if (record.value?.status === 'streaming') record.value = null;
    void fetchRecord(s.id);
  }

  /**
   * After a reconnect the subscription is gone on the companion's side: renew it, and take the
   * text from the start again (the companion resends it all). A resync on the same socket keeps both.
   */
  function afterSnapshot(freshSocket: boolean): void {
    const id = selectedId.value;
    if (!freshSocket) return;
    subscribed = null;
    liveItems.value = [];
    if (id && useExchangesStore().get(id)?.status === 'streaming') subscribe(id);
  }

  /** The request as a shell command, built by the companion (it knows which headers are credentials). */
  function curlOf(id: string): Promise<string> {
    return settings.api.curl(id);
  }

  return {
    selectedId,
    record,
    loading,
    error,
    liveItems,
    tools,
    liveTools,
    liveToolFor,
    select,
    applyItems,
    exchangeChanged,
    afterSnapshot,
    refetch: fetchRecord,
    curlOf,
  };
});
