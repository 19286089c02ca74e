/** @module The price table in force: the built-in prices merged with the user's `<home>/prices.json`. */
import fs from 'node:fs';
import { BUILTIN_PRICES } from '../analysis';
import { describeError } from '../lib/log';
import type { PriceTable } from '../protocol/analysis';
import { hashJson } from './hash';
import { paths } from './layout';

export interface PriceState {
  table: PriceTable;
  /**
   * A hash of the table in force: it changes when a release changes the built-in prices or the
   * user's overrides change, and each stored analysis records the one it priced with.
   */
  version: string;
  /** Problems in the user's override file (then the built-in table is used alone). */
  errors: string[];
}

/** The version of a price table: equal tables (however they were written) have equal versions. */
export function priceTableVersion(table: PriceTable): string {
  return hashJson(JSON.stringify(table));
}

const withVersion = (table: PriceTable, errors: string[]): PriceState => ({ table, version: priceTableVersion(table), errors });

/**
 * The built-in prices merged with `<home>/prices.json`, if present. The overrides' validation
 * needs the protocol's schemas (zod): it is loaded only when there is such a file.
 */
export async function loadPrices(home: string): Promise<PriceState> {
  const file = paths(home).prices;
  if (!fs.existsSync(file)) return withVersion(BUILTIN_PRICES, []);
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    return withVersion(BUILTIN_PRICES, [`${file}: not JSON (${describeError(err)})`]);
  }
  const { mergePriceOverrides } = await import('../analysis/price-overrides');
  const merged = mergePriceOverrides(BUILTIN_PRICES, json);
  return withVersion(
    merged.table,
    merged.errors.map((e) => `${file}: ${e}`),
  );
}

/**
 * The prices after `<home>/prices.json` changed while the companion runs: the new table, or, when
 * the edit is broken, the table in force before it with the edit's errors (a typo mid-edit must
 * not reprice the history with the built-in table).
 */
export async function reloadPrices(home: string, current: PriceState): Promise<PriceState> {
  const next = await loadPrices(home);
  return next.errors.length ? { ...current, errors: next.errors } : next;
}
