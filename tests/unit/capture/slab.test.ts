/**
 * Capture's copies of forwarded chunks are packed into shared slabs (one allocation and one
 * transfer per turn of the forwarding loop, not per chunk); each copy must still be its own
 * bytes, untouched by what the forward path later does with the chunk it copied.
 */
import { MessageChannel } from 'node:worker_threads';
import { expect, it } from 'vitest';
import { SLAB_BYTES, Slabs } from '../../../companion/capture/slab';

it('packs consecutive copies into one slab, each a copy of its chunk', () => {
  const slabs = new Slabs();
  const a = Buffer.from('first chunk');
  const b = Buffer.from('second');
  const ca = slabs.copy(a);
  const cb = slabs.copy(b);
  expect(cb.buffer).toBe(ca.buffer);
  expect(cb.byteOffset).toBe(ca.byteOffset + a.length);
  a.fill(0); // the forward path's buffer changes: the copy does not
  expect(Buffer.from(ca).toString()).toBe('first chunk');
  expect(Buffer.from(cb).toString()).toBe('second');
});

it('starts a new slab when a chunk does not fit, and gives a chunk larger than a slab one of its own', () => {
  const slabs = new Slabs();
  const first = slabs.copy(Buffer.alloc(SLAB_BYTES - 10, 1));
  const next = slabs.copy(Buffer.alloc(20, 2));
  expect(next.buffer).not.toBe(first.buffer);
  const huge = slabs.copy(Buffer.alloc(SLAB_BYTES * 3, 3));
  expect(huge.buffer.byteLength).toBe(SLAB_BYTES * 3);
  expect(huge.every((x) => x === 3)).toBe(true);
  expect(next.every((x) => x === 2)).toBe(true);
});

it('starts a new slab once the last one was transferred, and the transferred copies arrive whole', async () => {
  const slabs = new Slabs();
  const { port1, port2 } = new MessageChannel();
  const got = new Promise<Uint8Array[]>((r) => port2.once('message', (m: Uint8Array[]) => r(m)));
  const one = slabs.copy(Buffer.from('one'));
  const two = slabs.copy(Buffer.from('two'));
  port1.postMessage([one, two], [one.buffer as ArrayBuffer]);
  expect(one.buffer.byteLength).toBe(0); // detached here
  const three = slabs.copy(Buffer.from('three'));
  expect(Buffer.from(three).toString()).toBe('three');
  const [r1, r2] = await got;
  expect(r1.buffer).toBe(r2.buffer);
  expect([Buffer.from(r1).toString(), Buffer.from(r2).toString()]).toEqual(['one', 'two']);
  port1.close();
});
