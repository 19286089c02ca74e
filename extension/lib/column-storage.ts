/** The list columns the user turned off, in `storage.local`, so the choice outlives the panel. */
import { storage } from 'wxt/utils/storage';
import { COLUMNS, type ColumnKey } from './list-columns';

const item = storage.defineItem<{ hidden: string[] }>('local:listColumns', { fallback: { hidden: [] } });

/** Unknown names (a column since removed) are dropped; time cannot be hidden. */
export function normaliseHidden(value: unknown): ColumnKey[] {
  const hidden = value && typeof value === 'object' ? (value as { hidden?: unknown }).hidden : null;
  if (!Array.isArray(hidden)) return [];
  return COLUMNS.filter((c) => c !== 'time' && hidden.includes(c));
}

export async function readHiddenColumns(): Promise<ColumnKey[]> {
  return normaliseHidden(await item.getValue());
}

export async function writeHiddenColumns(hidden: readonly ColumnKey[]): Promise<void> {
  await item.setValue({ hidden: [...hidden] });
}
