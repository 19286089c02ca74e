/**
 * @module The latest rate-limit state across responses: each limit family keeps its newest
 * reading. Persisted (0600) so the popup shows the last known state after a restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RateLimitsSchema, type RateLimits } from '../protocol/ratelimits';
import { writePrivateFile } from './layout';

export class RateLimitState {
  private current: RateLimits | null = null;

  constructor(private readonly file: string | null) {
    if (file && fs.existsSync(file)) {
      const r = RateLimitsSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
      if (r.success) this.current = r.data;
    }
  }

  static inHome(home: string): RateLimitState {
    return new RateLimitState(path.join(home, 'ratelimits.json'));
  }

  get(): RateLimits | null {
    return this.current;
  }

  /** Merges a newer reading; returns the merged state. Older readings never overwrite newer ones. */
  update(next: RateLimits): RateLimits {
    const prev = this.current;
    if (prev && prev.observedAt > next.observedAt) return prev;
    const families = new Map((prev?.codex ?? []).map((f) => [f.limitId, f]));
    for (const f of next.codex) families.set(f.limitId, f);
    this.current = {
      observedAt: next.observedAt,
      codex: [...families.values()],
      credits: next.credits ?? prev?.credits ?? null,
      api: next.api ?? prev?.api ?? null,
      planType: next.planType ?? prev?.planType ?? null,
      promoMessage: next.promoMessage ?? prev?.promoMessage ?? null,
      reachedType: next.reachedType,
    };
    if (this.file) {
      try {
        writePrivateFile(this.file, JSON.stringify(this.current) + '\n');
      } catch {
        // Persisting is a convenience; the in-memory state is what clients get.
      }
    }
    return this.current;
  }
}
