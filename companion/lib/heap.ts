/**
 * @module How V8 sizes the heaps of a companion that runs all day. Its default heuristics favour
 * speed: a thread's heap grows well past what is live before it is collected, and stays grown
 * after a burst (a long session's 30 MB request, a 25 MB answer). The companion's work per
 * exchange is a few milliseconds, while its resident memory is what a user sees, so it asks V8
 * to favour size (`npm run bench` prints the memory this saves). V8 flags are process-wide: this
 * is set once, before the server and its capture worker allocate.
 */
import v8 from 'node:v8';

export const HEAP_FLAGS = '--optimize-for-size';

export function favourSmallHeaps(): void {
  v8.setFlagsFromString(HEAP_FLAGS);
}
