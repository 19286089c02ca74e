/**
 * @module The export's own bounded queue. When a backend is slow or down, the oldest items go
 * first and are counted: the companion's memory stays bounded and the newest data, the part a
 * team looks at, survives. (The SDK's batch processor drops the newest instead, silently.)
 */
export class DropOldestQueue<T> {
  private items: T[] = [];
  /** Items dropped because the queue was full, since start. */
  dropped = 0;

  constructor(readonly max: number) {}

  get size(): number {
    return this.items.length;
  }

  push(items: readonly T[]): void {
    this.items.push(...items);
    this.trim();
  }

  /** Puts a batch that failed back in front, where it was; the oldest still go first if full. */
  requeue(items: readonly T[]): void {
    this.items.unshift(...items);
    this.trim();
  }

  take(n: number): T[] {
    return this.items.splice(0, n);
  }

  private trim(): void {
    const over = this.items.length - this.max;
    if (over > 0) {
      this.items.splice(0, over);
      this.dropped += over;
    }
  }
}
