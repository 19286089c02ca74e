/**
 * @module Applies the capture worker's messages on the main thread, in the order they came:
 * records are made durable in the store before any client hears they completed; starts,
 * progress, completions, nicknames and rate limits go to the live hub.
 */
import type { RateLimitState } from '../store/ratelimit-state';
import type { LiveHub } from '../live/hub';
import type { LiveUsage } from '../protocol/live';
import type { ExchangeSummary } from '../protocol/exchange';
import { summaryOf } from '../store/codec';
import type { Store } from '../store/store';
import type { Sink } from './host';
import type { InflightExchange } from '../context';

export interface SinkParts {
  store: Store;
  hub: LiveHub;
  rateLimits: RateLimitState;
  inflight: Map<string, InflightExchange>;
  liveUsage(): LiveUsage;
  /** A relayed WebSocket's turn state (ws-relay closes connections at turn boundaries). */
  wsTurn(conn: number, open: boolean, turnId: string | null, clientMessages: number): void;
  /** After an exchange and its analysis are stored (the OTLP export reads it then). */
  stored?(exchange: { id: string; kind: string }): Promise<void> | undefined;
}

export function createSink(p: SinkParts): Sink {
  /** Summaries of records stored and awaiting their analysis. */
  const stored = new Map<string, ExchangeSummary>();
  return async (m, answer) => {
    switch (m.t) {
      case 'started':
        p.inflight.set(m.summary.id, { summary: m.summary, events: 0, text: '', tokens: 0 });
        p.hub.exchangeStarted(m.summary);
        return;
      case 'progress': {
        const f = p.inflight.get(m.id);
        if (!f) return;
        f.events = m.events;
        f.text += m.textDelta;
        f.tokens = m.tokens;
        p.hub.exchangeProgress({ id: m.id, events: f.events, text: () => f.text, tokens: f.tokens });
        return;
      }
      case 'record': {
        const record = m.record;
        await p.store.append(record);
        p.inflight.delete(record.id);
        stored.set(record.id, summaryOf(record));
        // WebSocket readings reached the state as they arrived (the worker's rateLimits message);
        // applying them again would only repeat the write and the broadcast.
        if (record.rateLimits && record.transport === 'http') p.hub.rateLimitsUpdated(p.rateLimits.update(record.rateLimits));
        return;
      }
      case 'analysed': {
        const fallback = stored.get(m.id);
        stored.delete(m.id);
        if (m.analysis && m.patch) await p.store.attachAnalysis(m.id, m.analysis, m.patch);
        const summary = p.store.summary(m.id) ?? fallback;
        if (summary) p.hub.exchangeCompleted(summary);
        if (m.kind === 'model') p.hub.usageUpdated(p.liveUsage());
        await p.stored?.({ id: m.id, kind: m.kind });
        return;
      }
      case 'nickname':
        // Exchanges of that child captured before the parent revealed its nickname.
        for (const s of p.store.list({ thread: m.threadId, limit: 1000 }).items) {
          if (s.agent.nickname === m.nickname) continue;
          const agent = { ...s.agent, nickname: m.nickname };
          void p.store.update(s.id, { agent });
          p.hub.exchangeUpdated({ ...s, agent });
        }
        return;
      case 'rateLimits':
        p.hub.rateLimitsUpdated(p.rateLimits.update(m.rateLimits));
        return;
      case 'wsTurn':
        p.wsTurn(m.conn, m.open, m.turnId, m.clientMessages);
        return;
      case 'call':
        if (m.c.c === 'threadSummaries') answer(m.n, p.store.list({ thread: m.c.threadId, limit: 20 }).items);
        else answer(m.n, await p.store.get(m.c.id));
        return;
      default:
        return;
    }
  };
}
