/**
 * @module The live addon, in the capture worker: announces each exchange as it starts and sends
 * its progress (event count, new output text, an o200k estimate of the output tokens so far) at
 * most every interval; the main thread's hub fans it out.
 */
import { countTextTokens } from '../analysis/tokenizer';
import type { CaptureAddon } from '../capture/addons';
import type { ExchangeFlow } from '../capture/flow';
import type { FromWorker } from '../capture/messages';

const PROGRESS_INTERVAL_MS = 50;

export function liveAddon(post: (m: FromWorker) => void): CaptureAddon {
  const pending = new Map<string, { flow: ExchangeFlow; timer: NodeJS.Timeout | null; chars: number; tokens: number }>();
  const flush = (id: string) => {
    const p = pending.get(id);
    if (!p) return;
    p.timer = null;
    const text = p.flow.assembler.text();
    const delta = text.slice(p.chars);
    // Output text may mention `<|endoftext|>`: counted as plain text, never thrown on.
    if (delta) p.tokens += countTextTokens(delta);
    p.chars = text.length;
    post({ t: 'progress', id, events: p.flow.events.length, textDelta: delta, tokens: p.tokens });
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
      pending.set(flow.id, { flow, timer: null, chars: 0, tokens: 0 });
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
