import { describe, expect, it } from 'vitest';
import { alignItems } from '../../../companion/analysis/item-align';

/**
 * Items are written `kind:text`: two items are the same item edited when their kinds match (as
 * type, role and call id would), equal when the whole key matches.
 */
const kind = (key: string) => key.split(':')[0];
const align = (prev: string[], cur: string[]) => alignItems(prev, cur, (i, j) => kind(prev[i]) === kind(cur[j]));
const never = () => false;

describe('alignItems', () => {
  it('reports only appended items when the current request extends the previous one', () => {
    expect(align(['a:1', 'b:1'], ['a:1', 'b:1', 'c:1', 'd:1'])).toEqual({
      commonPrefix: 2,
      changed: [],
      removed: [],
      inserted: [],
      appended: [2, 3],
    });
  });

  it('reports nothing for identical requests, and everything removed when the current one is empty', () => {
    expect(align(['a:1', 'b:1'], ['a:1', 'b:1'])).toEqual({ commonPrefix: 2, changed: [], removed: [], inserted: [], appended: [] });
    expect(align(['a:1', 'b:1'], [])).toEqual({ commonPrefix: 0, changed: [], removed: [0, 1], inserted: [], appended: [] });
    expect(align([], ['a:1'])).toEqual({ commonPrefix: 0, changed: [], removed: [], inserted: [], appended: [0] });
  });

  it('reports an item edited in place between matched items as changed', () => {
    expect(align(['a:1', 'b:1', 'c:1'], ['a:1', 'b:2', 'c:1'])).toEqual({
      commonPrefix: 1,
      changed: [[1, 1]],
      removed: [],
      inserted: [],
      appended: [],
    });
  });

  it('reports an item missing between matched items as removed, and a new one there as inserted', () => {
    expect(align(['a:1', 'b:1', 'c:1'], ['a:1', 'c:1'])).toEqual({
      commonPrefix: 1,
      changed: [],
      removed: [1],
      inserted: [],
      appended: [],
    });
    expect(align(['a:1', 'c:1'], ['a:1', 'x:1', 'c:1'])).toEqual({
      commonPrefix: 1,
      changed: [],
      removed: [],
      inserted: [1],
      appended: [],
    });
  });

  it('pairs an edited item with any compatible current item between two matches, the rest inserted', () => {
    // Between a:1 and z:1 the previous b:1 became b:2, with x:1 inserted before it.
    expect(align(['a:1', 'b:1', 'z:1'], ['a:1', 'x:1', 'b:2', 'z:1'])).toEqual({
      commonPrefix: 1,
      changed: [[1, 2]],
      removed: [],
      inserted: [1],
      appended: [],
    });
  });

  it('after the last match, takes only the next current item for an edit, so appended items are not edits', () => {
    // The last previous item b:1 is compatible with b:9 but not with the next current item x:1.
    expect(align(['a:1', 'b:1'], ['a:1', 'x:1', 'b:9'])).toEqual({
      commonPrefix: 1,
      changed: [],
      removed: [1],
      inserted: [],
      appended: [1, 2],
    });
    expect(align(['a:1', 'b:1'], ['a:1', 'b:2', 'c:1'])).toEqual({
      commonPrefix: 1,
      changed: [[1, 1]],
      removed: [],
      inserted: [],
      appended: [2],
    });
  });

  it('pairs several edited tail items in turn, each with the next current item', () => {
    expect(align(['a:1', 'b:1', 'c:1'], ['a:1', 'b:2', 'c:2', 'd:1'])).toEqual({
      commonPrefix: 1,
      changed: [
        [1, 1],
        [2, 2],
      ],
      removed: [],
      inserted: [],
      appended: [3],
    });
  });

  it('finds previous items again in order, after a prefix that stops at the first difference', () => {
    expect(align(['a:1', 'b:1', 'c:1', 'd:1'], ['a:1', 'c:1', 'b:1', 'd:1', 'e:1'])).toEqual({
      commonPrefix: 1,
      changed: [],
      removed: [2],
      inserted: [1],
      appended: [4],
    });
  });

  it('matches repeated keys to later copies only, never to one already passed', () => {
    // prev: x y x ; cur: y x x. The first previous x is matched to current 1; y (current 0) lies
    // behind it, so it is removed; the second previous x goes to current 2.
    expect(alignItems(['x', 'y', 'x'], ['y', 'x', 'x'], never)).toEqual({
      commonPrefix: 0,
      changed: [],
      removed: [1],
      inserted: [0],
      appended: [],
    });
  });

  it('moves the pointer of a repeated key past copies taken by an earlier match of another key', () => {
    // prev: p q p ; cur: q p p q p. The first p matches current 1, so q must come after it
    // (current 3), and the second p after that (current 4), skipping the p at current 2.
    expect(alignItems(['p', 'q', 'p'], ['q', 'p', 'p', 'q', 'p'], never)).toEqual({
      commonPrefix: 0,
      changed: [],
      removed: [],
      inserted: [0, 2],
      appended: [],
    });
  });

  it('removes previous items with no copy left in order and no compatible current item', () => {
    expect(alignItems(['a', 'b', 'c'], ['c', 'a'], never)).toEqual({
      commonPrefix: 0,
      changed: [],
      removed: [1, 2],
      inserted: [0],
      appended: [],
    });
  });

  it('asks compatibility with previous and current indices, not keys', () => {
    const asked: [number, number][] = [];
    alignItems(['a', 'b', 'z'], ['a', 'c', 'z'], (i, j) => {
      asked.push([i, j]);
      return true;
    });
    expect(asked).toEqual([[1, 1]]);
  });
});
