/**
 * The exchange list's columns: their widths, which the companion can sort by, and which fit a
 * given width. Time, Preview, Input, Cost and Cache come first (what a docked, narrow panel must
 * still show); the rest join as space allows, in the order of `PRIORITY`.
 */
import type { SortKeyName } from '../../companion/protocol';

export const COLUMNS = [
  'time',
  'status',
  'kind',
  'agent',
  'model',
  'input',
  'cached',
  'output',
  'reasoning',
  'cache',
  'cost',
  'duration',
  'preview',
] as const;
export type ColumnKey = (typeof COLUMNS)[number];

/** Pixel widths of the fixed columns; Preview takes what is left, at least `PREVIEW_MIN`. */
export const WIDTHS: Record<Exclude<ColumnKey, 'preview'>, number> = {
  time: 100,
  status: 92,
  kind: 92,
  agent: 118,
  model: 112,
  input: 62,
  cached: 64,
  output: 58,
  reasoning: 78,
  cache: 86,
  cost: 74,
  duration: 70,
};
export const PREVIEW_MIN = 50;

export const PRIORITY: readonly ColumnKey[] = [
  'time',
  'preview',
  'input',
  'cost',
  'cache',
  'status',
  'model',
  'output',
  'agent',
  'duration',
  'kind',
  'cached',
  'reasoning',
];

/** The sort each header asks the companion for (cached share for both the part and the verdict). */
export const SORT_OF: Partial<Record<ColumnKey, SortKeyName>> = {
  time: 'time',
  input: 'input',
  cached: 'cachedShare',
  output: 'output',
  cache: 'cachedShare',
  cost: 'cost',
  duration: 'duration',
};

/**
 * The columns shown in `width` pixels, in display order: by priority, each that still leaves
 * Preview its minimum. A width of 0 (not laid out, as in a test DOM) shows every chosen column.
 */
export function fitColumns(width: number, hidden: ReadonlySet<ColumnKey>): ColumnKey[] {
  const chosen = PRIORITY.filter((c) => !hidden.has(c));
  if (width <= 0) return COLUMNS.filter((c) => chosen.includes(c));
  let used = chosen.includes('preview') ? PREVIEW_MIN : 0;
  const shown = new Set<ColumnKey>();
  for (const c of chosen) {
    if (c === 'preview') {
      shown.add(c);
      continue;
    }
    // Time always stays, however narrow: a row without it cannot be told from its neighbours.
    if (used + WIDTHS[c] > width && c !== 'time') continue;
    used += WIDTHS[c];
    shown.add(c);
  }
  return COLUMNS.filter((c) => shown.has(c));
}

/** The CSS grid columns for the shown columns. */
export function gridTemplate(shown: readonly ColumnKey[]): string {
  return shown.map((c) => (c === 'preview' ? `minmax(${PREVIEW_MIN}px, 1fr)` : `${WIDTHS[c]}px`)).join(' ');
}
