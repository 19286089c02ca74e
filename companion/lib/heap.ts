/**
 * @module How V8 sizes the heaps of a companion that runs all day. Its default heuristics favour
 * speed: a thread's heap grows well past what is live before it is collected, and stays grown
 * after a burst (a long session's 30 MB request, a 25 MB answer). The companion's resident memory
 * is what a user sees, so the heap may grow by 30 % of what is live before a full collection
 * (V8 picks 50 % to 300 %), and the capture worker's new space is 2 MB a half.
 *
 * Not `--optimize-for-size`, which did as well for memory: it also makes every full collection
 * shrink the heap, and the helper threads' collection work then cost as much CPU as capture
 * itself (`npm run bench`, and per exchange, all threads: a typical turn 5.2 → 3.8 ms, a long
 * session's 1.5 MB turn 87 → 65 ms, with these flags). V8 flags are process-wide: this is set
 * once, before the server and its capture worker allocate (the new space of a heap is sized when
 * its thread starts, so the main thread keeps V8's).
 */
import v8 from 'node:v8';

export const HEAP_FLAGS = '--heap-growing-percent=30 --max-semi-space-size=2';

export function favourSmallHeaps(): void {
  v8.setFlagsFromString(HEAP_FLAGS);
}
