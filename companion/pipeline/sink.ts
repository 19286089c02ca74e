/**
 * @module Applies the capture worker's messages on the main thread, in the order they came:
 * starts, progress, completions, nicknames and rate limits go to the live hub, and the mirror of
 * the feed's snapshot follows them. The records themselves stay in the worker, which stored them
 * before saying so.
 */
import type { RateLimitState } from '../store/ratelimit-state';
import type { LiveHub } from '../live/hub';
import type { Sink } from './host';
import type { InflightExchange } from '../context';
import { LiveText } from '../live/live-text';
import type { Mirror } from './history-client';

export interface SinkParts {
  hub: LiveHub;
  rateLimits: RateLimitState;
  inflight: Map<string, InflightExchange>;
  mirror(): Mirror | null;
  /** A relayed WebSocket's turn state (ws-relay closes connections at turn boundaries). */
  wsTurn(conn: number, open: boolean, turnId: string | null, clientMessages: number): void;
  /** After an exchange and its analysis are stored (the OTLP export reads it then). */
  stored?(exchange: { id: string; kind: string }): Promise<void> | undefined;
  /** Exchanges an import added (the OTLP export queues them; nothing here waits for it). */
  imported?(ids: string[], last: boolean): void;
}

export function createSink(p: SinkParts): Sink {
  return async (m) => {
    switch (m.t) {
      case 'started':
        p.inflight.set(m.summary.id, { summary: m.summary, events: 0, chars: 0, tokens: 0, preview: null, live: new LiveText() });
        p.hub.exchangeStarted(m.summary);
        p.hub.activityChanged(p.inflight.size);
        return;
      case 'progress': {
        const f = p.inflight.get(m.id);
        if (!f) return;
        f.events = m.events;
        f.chars = m.chars;
        f.tokens = m.tokens;
        f.preview = m.preview;
        f.live.apply(m.items);
        p.hub.exchangeProgress({ id: m.id, ...f });
        return;
      }
      case 'stored':
        if (p.inflight.delete(m.summary.id)) p.hub.activityChanged(p.inflight.size);
        p.mirror()?.upsert(m.summary);
        if (m.rateLimits) p.hub.rateLimitsUpdated(p.rateLimits.update(m.rateLimits));
        return;
      case 'analysed': {
        if (m.summary) {
          p.mirror()?.upsert(m.summary);
          p.hub.exchangeCompleted(m.summary);
        }
        if (m.usage) {
          const mirror = p.mirror();
          if (mirror) mirror.usage = m.usage;
          p.hub.usageUpdated(m.usage);
        }
        await p.stored?.({ id: m.id, kind: m.kind });
        return;
      }
      case 'updated': {
        for (const s of m.summaries) {
          p.mirror()?.upsert(s);
          p.hub.exchangeUpdated(s);
        }
        const mirror = p.mirror();
        if (m.usage && mirror) mirror.usage = m.usage;
        if (m.usage) p.hub.usageUpdated(m.usage);
        return;
      }
      case 'imported':
        p.imported?.(m.ids, m.last);
        return;
      case 'rateLimits':
        p.hub.rateLimitsUpdated(p.rateLimits.update(m.rateLimits));
        return;
      case 'wsTurn':
        p.wsTurn(m.conn, m.open, m.turnId, m.clientMessages);
        return;
      default:
        return;
    }
  };
}
