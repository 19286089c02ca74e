import { describe, expect, it } from 'vitest';
import { DropOldestQueue } from '../../../companion/pipeline/otlp/queue';
import { BatchSender } from '../../../companion/pipeline/otlp/sender';

describe('the export queue', () => {
  it('drops the oldest items when full and counts them', () => {
    const q = new DropOldestQueue<number>(3);
    q.push([1, 2]);
    q.push([3, 4, 5]);
    expect(q.take(10)).toEqual([3, 4, 5]);
    expect(q.dropped).toBe(2);
  });

  it('puts a failed batch back in front, still dropping the oldest past the bound', () => {
    const q = new DropOldestQueue<number>(3);
    q.push([3, 4]);
    q.requeue([1, 2]);
    expect(q.take(10)).toEqual([2, 3, 4]);
    expect(q.dropped).toBe(1);
  });
});

describe('the batch sender', () => {
  const target = { endpoint: 'http://c/v1/traces', protocol: 'http/protobuf' };

  it('retries a failed batch with backoff and reports the failure, then the success', async () => {
    const sent: number[][] = [];
    let fail = 2;
    const s = new BatchSender<number>(
      async (batch) => {
        if (fail-- > 0) throw new Error('503 Service Unavailable');
        sent.push(batch);
      },
      { maxQueue: 10, maxBatch: 2, delayMillis: 1, initialBackoffMillis: 5, maxBackoffMillis: 20 },
      target,
    );
    s.add([1, 2, 3]);
    await new Promise((r) => setTimeout(r, 20));
    const failing = s.snapshot();
    expect(failing.failures).toBeGreaterThanOrEqual(1);
    expect(failing.lastError!.message).toBe('503 Service Unavailable');
    while (sent.flat().length < 3) await new Promise((r) => setTimeout(r, 5));
    expect(sent).toEqual([[1, 2], [3]]);
    const ok = s.snapshot();
    expect(ok).toMatchObject({ failures: 2, exported: 3, queued: 0, dropped: 0, retryAt: null });
    expect(ok.lastSuccessAt).not.toBeNull();
  });

  it('on shutdown sends what is queued, and gives up at the first failure', async () => {
    const sent: number[] = [];
    const s = new BatchSender<number>(async (b) => void sent.push(...b), { maxQueue: 10, maxBatch: 1, delayMillis: 60_000 }, target);
    s.add([1, 2]);
    await s.drain(Date.now() + 1000);
    expect(sent).toEqual([1, 2]);
    let calls = 0;
    const down = new BatchSender<number>(
      async () => {
        calls++;
        throw new Error('ECONNREFUSED');
      },
      { maxQueue: 10, maxBatch: 1, delayMillis: 60_000 },
      target,
    );
    down.add([1, 2, 3]);
    await down.drain(Date.now() + 1000);
    expect(calls).toBe(1);
    expect(down.snapshot().queued).toBe(3);
  });
});
