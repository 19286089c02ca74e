/**
 * An exchange counts as in flight until every addon is done with its end: a rollout import asks
 * whether a response was captured (in flight, or stored), and an exchange whose record the store
 * addon is still writing must be one or the other.
 */
import { expect, it } from 'vitest';
import { AddonManager } from '../../../companion/capture/addons';
import { CaptureRuntime } from '../../../companion/capture/runtime';
import { createLogger } from '../../../companion/lib/log';
import { RESPONSES_POST } from '../../support/flows';
import { encodeSse, message, response } from '../../support/sse';

it('keeps an ended exchange in flight until every addon, even one added later, is done with its end', async () => {
  const addons = new AddonManager(createLogger('silent'));
  const runtime = new CaptureRuntime(addons, () => undefined, { maxCaptureBytes: 1 << 24, capturing: true });
  let store!: () => void;
  const stored = new Promise<void>((r) => (store = r));
  const seenInFlight: boolean[] = [];
  // Added after the runtime, as the worker adds its store addon.
  addons.add({
    name: 'slow-store',
    response: async (f) => {
      seenInFlight.push(runtime.live.has(f.id));
      await stored;
    },
  });
  const id = 'in-flight-test';
  const at = Date.now();
  runtime.handle({ t: 'open', id, init: { ...RESPONSES_POST, id, startedAt: at } });
  const body = Buffer.from(JSON.stringify({ model: 'gpt-5.5', input: [], stream: true }));
  runtime.handle({ t: 'reqChunk', id, chunk: body });
  runtime.handle({ t: 'reqEnd', id, bytes: body.length, lost: null });
  expect(runtime.live.has(id)).toBe(true);
  runtime.handle({ t: 'head', id, status: 200, headers: [['content-type', 'text/event-stream']], at });
  runtime.handle({ t: 'chunk', id, chunk: Buffer.from(encodeSse(response([message('hello')]))), at });
  runtime.handle({ t: 'end', id, at });
  await new Promise((r) => setTimeout(r, 20));
  expect(seenInFlight).toEqual([true]);
  expect(runtime.live.has(id)).toBe(true);
  store();
  await runtime.idle();
  expect(runtime.live.has(id)).toBe(false);
});
