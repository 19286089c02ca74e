/**
 * @module When a turn's root span is sent. Codex does not announce the end of a turn, so a turn
 * ends when its thread starts the next one, when it has seen no exchange for a while, or when the
 * companion stops. Its exchanges' spans go out at once meanwhile, already naming the root (its id
 * is deterministic). A turn whose root was sent never gets a second one.
 */
import type { ExchangeRecord } from '../../protocol/exchange';
import { TurnSpan, turnKeyOf, type SpanSpec } from './spans';

const MAX_OPEN = 1000;
const MAX_REMEMBERED = 4096;

const keyOf = (r: ExchangeRecord) => {
  const k = turnKeyOf(r);
  return `${k.threadId}\0${k.turnId}`;
};

export class TurnTracker {
  private readonly open = new Map<string, TurnSpan>();
  private readonly latestByThread = new Map<string, string>();
  private readonly ended = new Set<string>();

  constructor(
    private readonly emit: (span: SpanSpec) => void,
    private readonly idleMillis: number,
  ) {}

  add(r: ExchangeRecord, now: number, imported = false): void {
    const key = keyOf(r);
    if (this.ended.has(key)) return;
    const thread = turnKeyOf(r).threadId;
    // A real turn starting ends the thread's previous turn; an exchange without a turn id
    // (a prewarm) is a turn of one exchange and ends nothing else.
    if (r.turnId) {
      const previous = this.latestByThread.get(thread);
      if (previous && previous !== key) this.end(previous);
      this.latestByThread.set(thread, key);
    }
    let turn = this.open.get(key);
    if (!turn) {
      turn = new TurnSpan(r, imported);
      this.open.set(key, turn);
    }
    turn.add(r, now);
    if (!r.turnId) this.end(key);
    if (this.open.size > MAX_OPEN) this.end(this.open.keys().next().value as string);
  }

  /** Ends the turns that have seen no exchange for the idle time. */
  sweep(now: number): void {
    for (const [key, turn] of this.open) if (now - turn.lastSeenAt >= this.idleMillis) this.end(key);
  }

  endAll(): void {
    for (const key of [...this.open.keys()]) this.end(key);
  }

  private end(key: string): void {
    const turn = this.open.get(key);
    if (!turn) return;
    this.open.delete(key);
    this.ended.add(key);
    if (this.ended.size > MAX_REMEMBERED) this.ended.delete(this.ended.values().next().value as string);
    if (this.latestByThread.get(turn.key.threadId) === key) this.latestByThread.delete(turn.key.threadId);
    this.emit(turn.toSpec());
  }
}
