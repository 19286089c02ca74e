/**
 * The live feed as visible state: connecting, connected, offline since when and why (close code
 * and reason), refused (wrong token, protocol mismatch saying which side to update). It decodes
 * every frame, keeps `seq` without gaps (a gap asks for `feed/resync`), and queues live messages
 * while a snapshot is pending, replaying them after it (convention 3).
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import { assertNever, parseServerMessage, type ClientMessage, type FeedScope, type ServerMessage } from '../../companion/protocol';
import type { BackoffOptions } from '@/lib/backoff';
import type { CloseInfo, ConnectionFactory } from '@/lib/companion-connection';
import { LiveFeed } from '@/lib/live-feed';
import { dispatchToStores, replayedAfterSnapshot, type Dispatch } from './feed-dispatch';
import { useSettingsStore } from './settings';

export type ConnectionStatus = 'idle' | 'unpaired' | 'connecting' | 'connected' | 'offline' | 'unauthorized' | 'mismatch';

export interface FeedProblem {
  code: 'unauthorized' | 'protocol_mismatch' | 'bad_message' | 'hello_timeout';
  message: string;
  /** For a protocol mismatch: the side that is behind. */
  update: 'extension' | 'companion' | null;
}

export interface StartOptions {
  connect: ConnectionFactory;
  scope: FeedScope;
  /** Where decoded messages go; the real stores by default. */
  dispatch?: Dispatch;
  backoff?: BackoffOptions;
  idleTimeoutMs?: number;
}

/** A snapshot that never comes must not let the queue grow without end. */
const MAX_QUEUED = 10_000;

export const useConnectionStore = defineStore('connection', () => {
  const settings = useSettingsStore();
  const status = ref<ConnectionStatus>('idle');
  const scope = ref<FeedScope>('full');
  const companionVersion = ref<string | null>(null);
  const offlineSince = ref<number | null>(null);
  const close = shallowRef<(CloseInfo & { at: number }) | null>(null);
  const retryAt = ref<number | null>(null);
  const attempt = ref(0);
  const problem = shallowRef<FeedProblem | null>(null);
  const lastSeq = ref<number | null>(null);
  const snapshotPending = ref(false);
  const resyncs = ref(0);
  const rejected = ref(0);
  const lastRejection = shallowRef<{ error: string; sample: string; at: number } | null>(null);
  const lastMessageAt = ref<number | null>(null);
  /** Unpaired pages still ask `/health`, to tell "not running" from "running, needs pairing". */
  const reachable = shallowRef<{ ok: boolean; version: string | null } | null>(null);

  let feed: LiveFeed | null = null;
  let dispatch: Dispatch = dispatchToStores;
  let queue: ServerMessage[] = [];
  let snapshotsThisSocket = 0;

  const connected = computed(() => status.value === 'connected');

  function start(opts: StartOptions): void {
    feed?.stop();
    scope.value = opts.scope;
    dispatch = opts.dispatch ?? dispatchToStores;
    feed = new LiveFeed({
      connect: opts.connect,
      scope: opts.scope,
      backoff: opts.backoff,
      idleTimeoutMs: opts.idleTimeoutMs,
      target: () => (settings.token ? { url: settings.feedUrl, token: settings.token } : null),
      events: { connecting, open: opened, frame: receive, closed, unpaired },
    });
    feed.start();
  }

  function stop(): void {
    feed?.stop();
    feed = null;
    status.value = 'idle';
  }

  /** The user's "retry", or a new pairing. */
  function retryNow(): void {
    problem.value = null;
    feed?.retryNow();
  }

  function send(message: ClientMessage): boolean {
    return feed?.send(message) ?? false;
  }

  function connecting(n: number): void {
    attempt.value = n;
    retryAt.value = null;
    if (status.value !== 'offline') status.value = 'connecting';
  }

  function opened(): void {
    // The companion answers a hello with a snapshot; anything before it waits in the queue.
    snapshotsThisSocket = 0;
    lastSeq.value = null;
    snapshotPending.value = true;
    queue = [];
  }

  function closed(info: CloseInfo, retryInMs: number | null): void {
    snapshotPending.value = false;
    queue = [];
    close.value = { ...info, at: Date.now() };
    retryAt.value = retryInMs === null ? null : Date.now() + retryInMs;
    if (status.value === 'unauthorized' || status.value === 'mismatch') return;
    offlineSince.value ??= Date.now();
    status.value = 'offline';
  }

  function unpaired(): void {
    snapshotPending.value = false;
    queue = [];
    status.value = 'unpaired';
    void probe();
  }

  async function probe(): Promise<void> {
    try {
      reachable.value = { ok: true, version: (await settings.api.health()).version };
    } catch {
      reachable.value = { ok: false, version: null }; // the status line says "offline" and how to start it
    }
  }

  function reject(error: string, raw: string): void {
    rejected.value++;
    lastRejection.value = { error, sample: raw.slice(0, 200), at: Date.now() };
    // One line in the console; the count and the last sample are in the panel's status bar.
    if (rejected.value === 1) console.warn(`codex-devtools: rejected a live-feed message (${error}); later ones are only counted.`);
  }

  function requestSnapshot(): void {
    if (snapshotPending.value) return;
    snapshotPending.value = true;
    resyncs.value++;
    queue = [];
    send({ type: 'feed/resync' });
  }

  /** True when `seq` does not follow the last one. */
  function gapAt(seq: number): boolean {
    const gap = lastSeq.value !== null && seq !== lastSeq.value + 1;
    lastSeq.value = seq;
    return gap;
  }

  function live(m: Exclude<ServerMessage, { type: 'feed/snapshot' | 'feed/reset' | 'feed/heartbeat' | 'feed/error' }>): void {
    if (gapAt(m.seq)) requestSnapshot();
    if (!snapshotPending.value) return dispatch(m, { freshSocket: false });
    queue.push(m);
    if (queue.length > MAX_QUEUED) feed?.retryNow();
  }

  function snapshot(m: Extract<ServerMessage, { type: 'feed/snapshot' }>): void {
    lastSeq.value = m.seq;
    snapshotPending.value = false;
    companionVersion.value = m.companionVersion;
    status.value = 'connected';
    offlineSince.value = null;
    problem.value = null;
    retryAt.value = null;
    feed?.markHealthy();
    dispatch(m, { freshSocket: snapshotsThisSocket++ === 0 });
    // Everything queued arrived before the snapshot, so it is older: replay only what the snapshot cannot hold.
    const pending = queue;
    queue = [];
    for (const q of pending) if (replayedAfterSnapshot(q)) dispatch(q, { freshSocket: false });
  }

  function feedError(m: Extract<ServerMessage, { type: 'feed/error' }>): void {
    problem.value = { code: m.code, message: m.message, update: m.update ?? null };
    if (m.code === 'unauthorized' || m.code === 'protocol_mismatch') {
      // Retrying with the same token or the same build cannot succeed; wait for a new pairing or an update.
      feed?.hold();
      status.value = m.code === 'unauthorized' ? 'unauthorized' : 'mismatch';
    }
  }

  function receive(raw: string): void {
    const parsed = parseServerMessage(raw);
    if (!parsed.ok) return reject(parsed.error, raw);
    const m = parsed.message;
    lastMessageAt.value = Date.now();
    switch (m.type) {
      case 'feed/heartbeat':
        return;
      case 'feed/error':
        return feedError(m);
      case 'feed/snapshot':
        return snapshot(m);
      case 'feed/reset':
        gapAt(m.seq);
        return requestSnapshot();
      case 'exchange/started':
      case 'exchange/progress':
      case 'exchange/completed':
      case 'exchange/updated':
      case 'usage/updated':
      case 'ratelimits/updated':
      case 'profile/changed':
      case 'capture/changed':
      case 'activity/changed':
        return live(m);
      default:
        return assertNever(m);
    }
  }

  // A new pairing (or port) from the options page: reconnect with it at once.
  watch(
    () => [settings.effectivePort, settings.token] as const,
    () => {
      if (feed) retryNow();
    },
  );

  return {
    status,
    scope,
    connected,
    companionVersion,
    offlineSince,
    close,
    retryAt,
    attempt,
    problem,
    lastSeq,
    snapshotPending,
    resyncs,
    rejected,
    lastRejection,
    lastMessageAt,
    reachable,
    start,
    probe,
    stop,
    retryNow,
    send,
    receive,
  };
});
