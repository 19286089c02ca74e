/**
 * @module Aligns the conversation items of two requests: the shared prefix, then the later
 * previous items found again in order (greedy, linear time), and what lies between: items
 * changed in place, removed, inserted, or appended at the end.
 */

export interface Alignment {
  /** Items equal from the start. */
  commonPrefix: number;
  /** [previousIndex, currentIndex] of items changed in place (same type, role and call id). */
  changed: [number, number][];
  removed: number[];
  /** Current items added before the last matched item. */
  inserted: number[];
  /** Current items after everything matched. */
  appended: number[];
}

/**
 * `prev` and `cur` are item keys (canonical JSON); `compatible(i, j)` says whether previous item
 * `i` and current item `j` are the same item edited (same type, role, call id).
 */
export function alignItems(prev: string[], cur: string[], compatible: (i: number, j: number) => boolean): Alignment {
  let p = 0;
  while (p < prev.length && p < cur.length && prev[p] === cur[p]) p++;
  // Later positions of each current key; a pointer per key moves forward only.
  const positions = new Map<string, number[]>();
  for (let j = p; j < cur.length; j++) {
    const list = positions.get(cur[j]);
    if (list) list.push(j);
    else positions.set(cur[j], [j]);
  }
  const pointer = new Map<string, number>();
  const anchors: [number, number][] = [];
  let last = p - 1;
  for (let i = p; i < prev.length; i++) {
    const list = positions.get(prev[i]);
    if (!list) continue;
    let k = pointer.get(prev[i]) ?? 0;
    while (k < list.length && list[k] <= last) k++;
    pointer.set(prev[i], k);
    if (k < list.length) {
      anchors.push([i, list[k]]);
      last = list[k];
    }
  }
  const out: Alignment = { commonPrefix: p, changed: [], removed: [], inserted: [], appended: [] };
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
  let pi = p;
  let cj = p;
  const gap = (pEnd: number, cEnd: number, atEnd: boolean) => {
    const free = range(cj, cEnd);
    for (const i of range(pi, pEnd)) {
      // Between matched items any compatible item is the edited one; after the last match only the
      // next current item can be, so newly appended items are not taken for edits.
      const at = atEnd ? (free.length > 0 && compatible(i, free[0]) ? 0 : -1) : free.findIndex((j) => compatible(i, j));
      if (at < 0) out.removed.push(i);
      else out.changed.push([i, free.splice(at, 1)[0]]);
    }
    (atEnd ? out.appended : out.inserted).push(...free);
  };
  for (const [i, j] of anchors) {
    gap(i, j, false);
    pi = i + 1;
    cj = j + 1;
  }
  gap(prev.length, cur.length, true);
  return out;
}
