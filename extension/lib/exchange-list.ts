/**
 * The exchanges a page holds: oldest first in one array (a live append is O(1)), an id → position
 * index, and a cap that drops the oldest when live traffic outgrows it (older pages come back
 * over REST). Summaries are replaced whole, never mutated.
 */
import type { ExchangeSummary } from '../../companion/protocol';

export type UpsertResult = 'added' | 'updated' | 'ignored';

const before = (a: ExchangeSummary, b: ExchangeSummary) => a.startedAt < b.startedAt || (a.startedAt === b.startedAt && a.id < b.id);

export class ExchangeList {
  private items: ExchangeSummary[] = [];
  /** Absolute positions: `items[i]` sits at `base + i`, so trimming the front does not renumber. */
  private readonly pos = new Map<string, number>();
  private base = 0;

  constructor(
    /** Live appends beyond this drop the oldest. */
    readonly max: number,
  ) {}

  get size(): number {
    return this.items.length;
  }

  get(id: string): ExchangeSummary | undefined {
    const p = this.pos.get(id);
    return p === undefined ? undefined : this.items[p - this.base];
  }

  has(id: string): boolean {
    return this.pos.has(id);
  }

  oldest(): ExchangeSummary | undefined {
    return this.items[0];
  }

  /** Newest first (a copy; the list's own array is oldest first). */
  newestFirst(): ExchangeSummary[] {
    const out = new Array<ExchangeSummary>(this.items.length);
    for (let i = 0, n = this.items.length; i < n; i++) out[i] = this.items[n - 1 - i];
    return out;
  }

  /** Replaces everything with a snapshot (newest first, as the companion sends it). */
  replaceAll(newestFirst: readonly ExchangeSummary[]): void {
    this.items = [...newestFirst].reverse();
    this.items.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    this.reindex(0);
  }

  /**
   * Adds or replaces one summary. A summary that is still `streaming` never replaces one that
   * has ended: messages older than a snapshot may be replayed after it (convention 3).
   */
  upsert(s: ExchangeSummary, { addIfMissing = true } = {}): UpsertResult {
    const p = this.pos.get(s.id);
    if (p !== undefined) {
      const current = this.items[p - this.base];
      if (current.status !== 'streaming' && s.status === 'streaming') return 'ignored';
      this.items[p - this.base] = s;
      return 'updated';
    }
    if (!addIfMissing) return 'ignored';
    const last = this.items[this.items.length - 1];
    if (!last || !before(s, last)) {
      this.pos.set(s.id, this.base + this.items.length);
      this.items.push(s);
    } else {
      // Parallel agents can start out of order by a few milliseconds: insert in place (rare, O(n)).
      let lo = 0;
      let hi = this.items.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (before(this.items[mid], s)) lo = mid + 1;
        else hi = mid;
      }
      this.items.splice(lo, 0, s);
      this.reindex(lo);
    }
    return 'added';
  }

  /** Adds an older page (newest first, from `GET /exchanges?before=`) in front; returns how many were new. */
  prependOlder(newestFirst: readonly ExchangeSummary[]): number {
    const older = [...newestFirst].reverse().filter((s) => !this.pos.has(s.id));
    if (older.length === 0) return 0;
    this.base -= older.length;
    this.items = [...older, ...this.items];
    older.forEach((s, i) => this.pos.set(s.id, this.base + i));
    return older.length;
  }

  /** Drops the oldest tenth once the list is over its cap; returns how many were dropped. */
  trim(): number {
    if (this.items.length <= this.max) return 0;
    // Dropping in chunks keeps the O(n) splice rare.
    const drop = this.items.length - this.max + Math.floor(this.max / 10);
    for (const s of this.items.slice(0, drop)) this.pos.delete(s.id);
    this.items.splice(0, drop);
    this.base += drop;
    return drop;
  }

  clear(): void {
    this.items = [];
    this.pos.clear();
    this.base = 0;
  }

  private reindex(from: number): void {
    if (from === 0) {
      this.pos.clear();
      this.base = 0;
    }
    for (let i = from; i < this.items.length; i++) this.pos.set(this.items[i].id, this.base + i);
  }
}
