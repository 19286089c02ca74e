/**
 * @module The user's price overrides (`<home>/prices.json`) applied to a price table, validated by
 * the protocol's schema. Apart from pricing.ts because it needs zod: the capture worker loads it
 * only when such a file exists (store/prices-file.ts), and otherwise never loads the schemas.
 */
import { z } from 'zod';
import { PriceOverridesSchema, type PriceRow, type PriceTable } from '../protocol/analysis';
import { normalizeModel, normalizeTier } from './pricing';

export interface MergedPrices {
  table: PriceTable;
  /** Why the override object was rejected; the table is then the one given, unchanged. */
  errors: string[];
}

/**
 * Applies a user override object (the parsed override file) to a price table: its rows replace
 * rows of the same model and tier or add new ones, and `unpriced` models lose all their rows.
 * Invalid overrides are rejected whole, with readable errors, and the table stays as it was.
 */
export function mergePriceOverrides(table: PriceTable, overrides: unknown): MergedPrices {
  const parsed = PriceOverridesSchema.safeParse(overrides);
  if (!parsed.success) return { table, errors: [z.prettifyError(parsed.error)] };
  const { rows, unpriced } = parsed.data;
  const dropped = new Set(unpriced.map(normalizeModel));
  const key = (r: PriceRow) => `${normalizeModel(r.model)}\u0000${normalizeTier(r.tier)}`;
  const replaced = new Set(rows.map(key));
  const kept = table.rows.filter((r) => !replaced.has(key(r)) && !dropped.has(normalizeModel(r.model)));
  const added = rows.map((r) => ({ ...r, tier: normalizeTier(r.tier) })).filter((r) => !dropped.has(normalizeModel(r.model)));
  return { table: { rows: [...added, ...kept] }, errors: [] };
}
