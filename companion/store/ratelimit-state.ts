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
    // Each value keeps the time it was read, so one kept from an older reading says how old it is.
    const at = <T extends { observedAt?: number }>(v: T | null, when: number | undefined): T | null =>
      v ? { ...v, observedAt: v.observedAt ?? when } : null;
    const families = new Map((prev?.codex ?? []).map((f) => [f.limitId, at(f, prev?.observedAt)!]));
    for (const f of next.codex) families.set(f.limitId, at(f, next.observedAt)!);
    this.current = {
      observedAt: next.observedAt,
      codex: [...families.values()],
      credits: at(next.credits, next.observedAt) ?? at(prev?.credits ?? null, prev?.observedAt),
      api: at(next.api, next.observedAt) ?? at(prev?.api ?? null, prev?.observedAt),
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
