/**
 * @module The live addon, in the capture worker: announces each exchange as it starts and sends
 * its progress (event count, the new text of each output item, the row preview, an o200k
 * estimate of the output tokens so far) at most every interval; the main thread's hub fans it out.
 */
import type { CaptureAddon } from '../capture/addons';
import type { ExchangeFlow } from '../capture/flow';
import type { FromWorker } from '../capture/messages';
import { LiveItems } from './live-items';

/** Coalesces a burst of events into one message to the main thread (the hub throttles again per client). */
const PROGRESS_INTERVAL_MS = 50;

export function liveAddon(post: (m: FromWorker) => void): CaptureAddon {
  const pending = new Map<string, { flow: ExchangeFlow; timer: NodeJS.Timeout | null; live: LiveItems }>();
  const flush = (id: string) => {
    const p = pending.get(id);
    if (!p) return;
    p.timer = null;
    const step = p.live.step();
    post({ t: 'progress', id, events: p.flow.events.length, ...step });
  };
  // The last events' progress goes out before the exchange is stored and announced complete.
  const end = (flow: ExchangeFlow) => {
    const p = pending.get(flow.id);
    if (p?.timer) {
      clearTimeout(p.timer);
      flush(flow.id);
    }
    pending.delete(flow.id);
  };
  return {
    name: 'live',
    request(flow) {
      pending.set(flow.id, { flow, timer: null, live: new LiveItems(flow.assembler) });
      post({ t: 'started', summary: flow.toSummary() });
    },
    event(flow) {
      const p = pending.get(flow.id);
      if (p && !p.timer) p.timer = setTimeout(() => flush(flow.id), PROGRESS_INTERVAL_MS);
    },
    response: end,
    error: end,
  };
}
