/** Which list columns the user chose to see (the width decides which of them fit), remembered across sessions. */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { readHiddenColumns, writeHiddenColumns } from '@/lib/column-storage';
import type { ColumnKey } from '@/lib/list-columns';

export const useColumnsStore = defineStore('columns', () => {
  const hiddenList = ref<ColumnKey[]>([]);
  const hidden = computed(() => new Set(hiddenList.value));
  let loaded: Promise<void> | null = null;

  function load(): Promise<void> {
    loaded ??= readHiddenColumns().then((h) => void (hiddenList.value = h));
    return loaded;
  }

  async function toggle(c: ColumnKey): Promise<void> {
    if (c === 'time') return;
    // The stored choice first, so a read still under way cannot undo this one.
    await load();
    hiddenList.value = hidden.value.has(c) ? hiddenList.value.filter((x) => x !== c) : [...hiddenList.value, c];
    await writeHiddenColumns(hiddenList.value);
  }

  return { hidden, load, toggle };
});
