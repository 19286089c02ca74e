/** @module The price table in force: the built-in prices merged with the user's `<home>/prices.json`. */
import fs from 'node:fs';
import { BUILTIN_PRICES, mergePriceOverrides } from '../analysis';
import { describeError } from '../lib/log';
import type { PriceTable } from '../protocol/analysis';
import { paths } from './layout';

export interface PriceState {
  table: PriceTable;
  /** Problems in the user's override file (then the built-in table is used alone). */
  errors: string[];
}

/** The built-in prices merged with `<home>/prices.json`, if present. */
export function loadPrices(home: string): PriceState {
  const file = paths(home).prices;
  if (!fs.existsSync(file)) return { table: BUILTIN_PRICES, errors: [] };
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    return { table: BUILTIN_PRICES, errors: [`${file}: not JSON (${describeError(err)})`] };
  }
  const merged = mergePriceOverrides(BUILTIN_PRICES, json);
  return { table: merged.table, errors: merged.errors.map((e) => `${file}: ${e}`) };
}
