/**
 * Re-chunking for stream tests: every parser test runs its input whole and split at chunk
 * boundaries (every split point for small inputs, seeded random splits for large ones). Test-only.
 */

/** Every way to cut `buf` in two, plus the whole buffer and byte-by-byte. */
export function* everySplit(buf: Uint8Array): Generator<Uint8Array[]> {
  yield [buf];
  for (let i = 1; i < buf.length; i++) yield [buf.subarray(0, i), buf.subarray(i)];
  yield Array.from(buf, (_, i) => buf.subarray(i, i + 1));
}

/** A small deterministic PRNG (mulberry32) so failures reproduce. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `runs` random chunkings of `buf`, each with 1–`maxPieces` pieces. */
export function* seededSplits(buf: Uint8Array, runs: number, seed = 1, maxPieces = 40): Generator<Uint8Array[]> {
  const rnd = prng(seed);
  for (let r = 0; r < runs; r++) {
    const pieces = 1 + Math.floor(rnd() * maxPieces);
    const cuts = new Set<number>();
    while (cuts.size < Math.min(pieces - 1, buf.length - 1)) cuts.add(1 + Math.floor(rnd() * (buf.length - 1)));
    const sorted = [...cuts].sort((a, b) => a - b);
    const out: Uint8Array[] = [];
    let prev = 0;
    for (const c of [...sorted, buf.length]) {
      out.push(buf.subarray(prev, c));
      prev = c;
    }
    yield out;
  }
}

/** Feeds chunks to `push` in order, then calls `end`. */
export function feedInChunks(chunks: Uint8Array[], push: (c: Uint8Array) => void, end?: () => void): void {
  for (const c of chunks) push(c);
  end?.();
}
