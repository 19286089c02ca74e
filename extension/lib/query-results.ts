/**
 * The list under a filter or sort: the store's pages in the store's order, and the live exchanges
 * that arrive meanwhile, placed where the sort puts them when they match (the protocol's
 * `matchesQuery`) and only counted when they do not.
 */
import { matchesQuery, sortsBefore, type ExchangeListResponse, type ExchangeSummary } from '../../companion/protocol';
import type { ListQuery } from './exchange-filter';

export type LivePlacement = 'placed' | 'moved' | 'hidden' | 'ignored';

export class QueryResults {
  items: ExchangeSummary[] = [];
  private readonly ids = new Set<string>();
  nextCursor: string | null = null;
  /** From the store's answer; null when an older companion did not say. */
  private matched: number | null = null;
  /** The store stopped counting a search at its cap: `matched` is a lower bound. */
  private capped = false;
  private stored: number | null = null;
  /** Live exchanges since the answer: shown (they match) and not shown (they do not). */
  readonly shownLive = new Set<string>();
  readonly hiddenLive = new Set<string>();

  constructor(readonly query: ListQuery) {}

  /** The first page. */
  reset(page: ExchangeListResponse): void {
    this.items = [];
    this.ids.clear();
    this.shownLive.clear();
    this.hiddenLive.clear();
    this.matched = page.matched;
    this.capped = page.matchedCapped;
    this.stored = page.stored;
    this.append(page);
  }

  /** The next page (`nextCursor`), after what is loaded. */
  append(page: ExchangeListResponse): void {
    for (const s of page.items) {
      if (this.ids.has(s.id)) continue;
      this.ids.add(s.id);
      this.items.push(s);
    }
    this.nextCursor = page.nextCursor;
  }

  get(id: string): ExchangeSummary | undefined {
    return this.ids.has(id) ? this.items.find((s) => s.id === id) : undefined;
  }

  /** How many match, the live ones that do included. */
  get matchedCount(): number | null {
    return this.matched === null ? null : this.matched + this.shownLive.size;
  }

  /**
   * True when `matchedCount` is a lower bound: the store counted a search up to its cap (the live
   * exchanges added to it keep it one).
   */
  get matchedCapped(): boolean {
    return this.capped;
  }

  get storedCount(): number | null {
    return this.stored === null ? null : this.stored + this.shownLive.size + this.hiddenLive.size;
  }

  /**
   * A live summary. `isNew`: the exchange began after the store answered (so the answer did not
   * count it). A shown row that changes is re-placed by its new sort value, and stays even when
   * it stops matching, so a row never vanishes under the user's pointer.
   */
  live(s: ExchangeSummary, isNew: boolean): LivePlacement {
    if (this.ids.has(s.id)) {
      const at = this.items.findIndex((x) => x.id === s.id);
      // A streaming summary replayed after the ended one (convention 3) never replaces it.
      if (s.status === 'streaming' && this.items[at].status !== 'streaming') return 'ignored';
      this.items.splice(at, 1);
      this.insert(s, matchesQuery(s, this.query) ? this.position(s) : at);
      return 'moved';
    }
    if (!matchesQuery(s, this.query)) {
      if (isNew || this.hiddenLive.has(s.id)) this.hiddenLive.add(s.id);
      return isNew ? 'hidden' : 'ignored';
    }
    const at = this.position(s);
    // Past the last loaded row with more pages to come: the next page brings it in its place.
    const later = at === this.items.length && this.nextCursor !== null;
    if (isNew || this.hiddenLive.has(s.id)) this.shownLive.add(s.id);
    // One that began before the answer and matches only now (it ended as a miss, say) was not
    // among the matches the store counted, unless it lies in the pages not loaded yet.
    else if (!later && this.matched !== null) this.matched++;
    this.hiddenLive.delete(s.id);
    if (!later) this.insert(s, at);
    return 'placed';
  }

  private insert(s: ExchangeSummary, at: number): void {
    this.items.splice(at, 0, s);
    this.ids.add(s.id);
  }

  /** The first index whose row `s` sorts before (binary search: the items are in sort order). */
  private position(s: ExchangeSummary): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sortsBefore(this.items[mid], s, this.query.sort, this.query.order)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
