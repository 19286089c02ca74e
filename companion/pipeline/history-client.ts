/**
 * @module The main thread's handle on the history in the capture worker: every operation of
 * pipeline/history.ts as an async call, one message each. Mutations that change what the live
 * feed's snapshot shows refresh the mirror the main thread keeps of it (recent exchanges, live
 * usage) before they resolve, so the `hub.reset` that follows sends the new state.
 */
import type { HistoryMirror, HistoryOp, HistoryOps } from './history';

export type HistoryClient = {
  [K in HistoryOp]: (...args: Parameters<HistoryOps[K]>) => Promise<Awaited<ReturnType<HistoryOps[K]>>>;
} & { readonly maxBytes: number };

/** Every operation, once: `satisfies` keeps this list and HistoryOps the same. */
const OPS = {
  list: false,
  get: false,
  append: true,
  attachAnalysis: true,
  clear: true,
  deleteSession: true,
  stats: false,
  prune: true,
  usage: false,
  sessionReport: false,
  sessionList: false,
  mostExpensive: false,
  cacheMissesByCost: false,
  daily: false,
  liveUsage: false,
  mirror: false,
  export: false,
  import: true,
  close: false,
  migrateLegacy: true,
  capPages: false,
} satisfies Record<HistoryOp, boolean>;

export function historyClient(
  call: (op: HistoryOp, args: unknown[]) => Promise<unknown>,
  maxBytes: number,
  refreshMirror: () => Promise<void>,
): HistoryClient {
  const client: Record<string, unknown> = { maxBytes };
  for (const [op, changesSnapshot] of Object.entries(OPS) as [HistoryOp, boolean][]) {
    client[op] = async (...args: unknown[]) => {
      const value = await call(op, args);
      if (changesSnapshot) await refreshMirror();
      return value;
    };
  }
  return client as HistoryClient;
}

/** The main thread's copy of the live feed's snapshot sources, kept current by the worker's messages. */
export class Mirror implements HistoryMirror {
  recent: HistoryMirror['recent'] = [];
  usage: HistoryMirror['usage'];

  constructor(
    private readonly size: number,
    initial: HistoryMirror,
  ) {
    this.usage = initial.usage;
    this.replace(initial);
  }

  replace(m: HistoryMirror): void {
    this.recent = m.recent.slice(0, this.size);
    this.usage = m.usage;
  }

  /** A summary stored or changed: replaced in place, or placed by id (ids sort by start time). */
  upsert(s: HistoryMirror['recent'][number]): void {
    const at = this.recent.findIndex((x) => x.id === s.id);
    if (at >= 0) return void (this.recent[at] = s);
    const before = this.recent.findIndex((x) => x.id < s.id);
    if (before < 0) {
      if (this.recent.length < this.size) this.recent.push(s);
      return;
    }
    this.recent.splice(before, 0, s);
    if (this.recent.length > this.size) this.recent.pop();
  }
}
