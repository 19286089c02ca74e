/** Stores a test opens, closed after it. Test-only. */
import { afterEach } from 'vitest';
import type { Store } from '../../companion/store/store';

/**
 * For one test file: hands each store a test opens to `closeAfter`, which closes it once the
 * test ends, passed or failed (registers the `afterEach` itself, as `tempHomes` does).
 */
export function storesClosedAfterEach(): (store: Store) => Store {
  const open: Store[] = [];
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });
  return (store) => {
    open.push(store);
    return store;
  };
}
