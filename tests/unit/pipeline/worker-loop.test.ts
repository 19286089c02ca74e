/**
 * The capture worker keeps its own loop turning under a steady stream of messages. A MessagePort
 * hands a busy receiver up to 1,000 messages in one go; handled there, they held back everything
 * the worker schedules for the end of a turn (acknowledgements that free capture's byte budget,
 * announcements to the main thread, the store's writes) until the stream paused.
 */
import fs from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, expect, it } from 'vitest';
import { serve } from '../../../companion/worker';
import type { FromWorker, ToWorker } from '../../../companion/capture/messages';
import { tempHome } from '../../support/companion';
import { RESPONSES_POST } from '../../support/flows';
import { encodeSse, message, response } from '../../support/sse';

const EXCHANGES = 30;
const global = globalThis as { codexDevtoolsTestRelay?: () => void };
const homes: string[] = [];
afterEach(() => {
  delete global.codexDevtoolsTestRelay;
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

/** One whole exchange, as the main thread would send it in one turn. */
function exchange(n: number): ToWorker {
  const id = `loop-${String(n).padStart(3, '0')}`;
  const at = Date.now();
  const body = new TextEncoder().encode(JSON.stringify({ model: 'gpt-5.5', input: [], stream: true }));
  const sse = new TextEncoder().encode(encodeSse(response([message(`answer ${n}`)])));
  return {
    t: 'batch',
    messages: [
      { t: 'open', id, init: { ...RESPONSES_POST, id, startedAt: at } },
      { t: 'reqChunk', id, chunk: body },
      { t: 'reqEnd', id, bytes: body.byteLength, lost: null },
      { t: 'head', id, status: 200, headers: [['content-type', 'text/event-stream']], at },
      { t: 'chunk', id, chunk: sse, at },
      { t: 'end', id, at },
    ],
  };
}

it('answers while a stream of messages is still arriving, not only once it pauses', async () => {
  const home = tempHome('codex-devtools-loop-');
  homes.push(home);
  const { port1, port2 } = new MessageChannel();
  await serve(port2, {
    home,
    maxCaptureBytes: 1 << 24,
    configuredWindows: {},
    capturing: true,
    logLevel: 'warn',
    addonModules: [new URL('../../support/addons/relay.ts', import.meta.url).href],
    maxStoreBytes: 1 << 30,
    announceImports: false,
  });
  // Each exchange's request hook sends the next one: the worker's port is never empty until the last.
  let sent = 1;
  global.codexDevtoolsTestRelay = () => {
    if (sent < EXCHANGES) port1.postMessage(exchange(sent++));
  };
  const all = (x: FromWorker): FromWorker[] => (x.t === 'batch' ? x.messages.flatMap(all) : [x]);
  /** Each message the worker posted, with how many exchanges had been sent when it arrived. */
  const heard: { sent: number; m: FromWorker }[] = [];
  const stored = new Promise<void>((resolve) =>
    port1.on('message', (m: FromWorker) => {
      heard.push(...all(m).map((x) => ({ sent, m: x })));
      if (heard.filter((h) => h.m.t === 'stored').length === EXCHANGES) resolve();
    }),
  );
  port1.postMessage(exchange(0));
  await stored;
  // The first acknowledgement and the first stored exchange came while exchanges were still being
  // sent (held back, they came after all 30).
  expect(heard.find((h) => h.m.t === 'ack')?.sent).toBeLessThanOrEqual(4);
  expect(heard.find((h) => h.m.t === 'stored')?.sent).toBeLessThanOrEqual(5);
  expect(sent).toBe(EXCHANGES);
  port1.postMessage({ t: 'history', n: 1, op: 'close', args: [] });
  await new Promise<void>((resolve) => port1.on('message', (m: FromWorker) => all(m).some((x) => x.t === 'answer') && resolve()));
  port1.close();
});
