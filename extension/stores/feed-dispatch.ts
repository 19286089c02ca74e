/** Routes each decoded live-feed message to the domain stores' actions: the one place message meaning meets state. */
import { assertNever, type ServerMessage } from '../../companion/protocol';
import { useCaptureStore } from './capture';
import { useDetailStore } from './detail';
import { useExchangesStore } from './exchanges';
import { useProfilesStore } from './profiles';
import { useSessionsStore } from './sessions';
import { useUsageStore } from './usage';

export interface DispatchContext {
  /** The first snapshot of a new socket: exchanges in flight on an earlier socket are gone. */
  freshSocket: boolean;
}

export type Dispatch = (m: ServerMessage, ctx: DispatchContext) => void;

/**
 * Whether a message that arrived while a snapshot was pending is replayed after it. Such a
 * message is older than the snapshot: exchange messages still matter (the snapshot holds no
 * progress, and the list never lets a streaming summary replace a finished one); totals, limits,
 * profile and capture state in the snapshot are newer than any queued copy.
 */
export function replayedAfterSnapshot(m: ServerMessage): boolean {
  switch (m.type) {
    case 'exchange/started':
    case 'exchange/progress':
    case 'exchange/completed':
    case 'exchange/updated':
      return true;
    case 'usage/updated':
    case 'ratelimits/updated':
    case 'profile/changed':
    case 'capture/changed':
    case 'activity/changed':
    case 'feed/snapshot':
    case 'feed/reset':
    case 'feed/heartbeat':
    case 'feed/error':
      return false;
    default:
      return assertNever(m);
  }
}

export const dispatchToStores: Dispatch = (m, ctx) => {
  switch (m.type) {
    case 'feed/snapshot':
      useExchangesStore().applySnapshot(m.exchanges, { keepInFlight: !ctx.freshSocket });
      useUsageStore().applyUsage(m.usage);
      useUsageStore().applyRateLimits(m.rateLimits);
      useProfilesStore().applyActive(m.profile);
      useCaptureStore().applyCapture(m.capture);
      useCaptureStore().applyActivity(m.streaming);
      useSessionsStore().markStale();
      useDetailStore().afterSnapshot(ctx.freshSocket);
      return;
    case 'exchange/started':
      useExchangesStore().applySummary(m.exchange);
      return;
    case 'exchange/progress':
      useExchangesStore().applyProgress(m);
      if (m.items) useDetailStore().applyItems(m.id, m.items);
      return;
    case 'exchange/completed':
    case 'exchange/updated':
      useExchangesStore().applySummary(m.exchange, { addIfMissing: m.type === 'exchange/completed' });
      useDetailStore().exchangeChanged(m.exchange);
      useSessionsStore().markStale();
      return;
    case 'usage/updated':
      useUsageStore().applyUsage(m.usage);
      return;
    case 'ratelimits/updated':
      useUsageStore().applyRateLimits(m.rateLimits);
      return;
    case 'profile/changed':
      useProfilesStore().applyActive(m.profile);
      return;
    case 'capture/changed':
      useCaptureStore().applyCapture(m.capture);
      return;
    case 'activity/changed':
      useCaptureStore().applyActivity(m.streaming);
      return;
    case 'feed/reset':
    case 'feed/heartbeat':
    case 'feed/error':
      return; // the connection store handles these itself
    default:
      return assertNever(m);
  }
};
