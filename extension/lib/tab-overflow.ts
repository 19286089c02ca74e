/**
 * Which detail tabs fit the strip and which go to its overflow menu. The selected tab is always
 * in the strip (it takes the last slot that fits), so the strip never hides what is shown.
 */
export interface TabSplit<T> {
  strip: T[];
  overflow: T[];
}

/** Room the overflow button takes. */
export const MORE_WIDTH = 34;

/**
 * `widths[i]` is tab i's width; a strip width of 0 (not laid out) or tabs not measured keep
 * every tab in the strip.
 */
export function splitTabs<T>(tabs: readonly T[], widths: readonly number[], stripWidth: number, active: T): TabSplit<T> {
  const total = widths.reduce((a, b) => a + b, 0);
  if (stripWidth <= 0 || widths.length !== tabs.length || total === 0 || total <= stripWidth) return { strip: [...tabs], overflow: [] };
  let used = MORE_WIDTH;
  let fit = 0;
  while (fit < tabs.length && used + widths[fit] <= stripWidth) used += widths[fit++];
  const strip = tabs.slice(0, Math.max(fit, 1));
  const at = tabs.indexOf(active);
  if (at >= strip.length) strip[strip.length - 1] = active;
  return { strip, overflow: tabs.filter((t) => !strip.includes(t)) };
}
