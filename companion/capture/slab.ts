/**
 * @module Copies of forwarded chunks, packed into shared buffers. A buffer per chunk cost the
 * forwarding thread an allocation, a transfer and the garbage collector's notice of its memory
 * for each of a streamed answer's many small chunks; packed, a turn of its loop allocates one
 * buffer or a few and transfers each once (the host sends a buffer named twice once). A copy is
 * a view of its slab: the slab goes to the worker whole, so a slab is kept small (below the size
 * at which the allocator maps pages of its own) and a chunk larger than a slab gets one of its own.
 */

/** Bytes per slab: 64 KiB is below glibc's default mmap threshold (128 KiB), so a slab is a plain malloc. */
export const SLAB_BYTES = 64 * 1024;

export class Slabs {
  private slab: ArrayBuffer | null = null;
  private used = 0;

  /** A copy of `chunk`, in the current slab when it fits and the slab has not been transferred. */
  copy(chunk: Uint8Array): Uint8Array {
    const n = chunk.byteLength;
    // A transferred slab is detached: its byteLength is 0 from then on.
    if (!this.slab || this.slab.byteLength === 0 || this.used + n > this.slab.byteLength) {
      // Not zero-filled: every byte of a copy is written before anyone reads it.
      this.slab = Buffer.allocUnsafeSlow(Math.max(n, SLAB_BYTES)).buffer as ArrayBuffer;
      this.used = 0;
    }
    const view = new Uint8Array(this.slab, this.used, n);
    view.set(chunk);
    this.used += n;
    return view;
  }
}

/**
 * `prev` and `next` as one view, when `next` was copied right behind `prev` in the same slab and
 * that slab has not been transferred since; null otherwise.
 */
export function joined(prev: Uint8Array, next: Uint8Array): Uint8Array | null {
  // Once a slab is transferred, the next copy goes to a new one (see copy).
  if (prev.buffer !== next.buffer || prev.byteOffset + prev.byteLength !== next.byteOffset) return null;
  return new Uint8Array(prev.buffer, prev.byteOffset, prev.byteLength + next.byteLength);
}
