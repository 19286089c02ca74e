/**
 * Seeded factories for what the extension receives (summaries, usage roll-ups, rate limits,
 * snapshots), each taking deep-partial overrides. Test-only.
 */
import {
  PROTOCOL_VERSION,
  type ExchangeSummary,
  type LiveUsage,
  type ProfilePublic,
  type RateLimits,
  type ServerMessage,
  type UsageRollup,
} from '../../companion/protocol';
import { deriveRollup } from '../../companion/analysis/usage-rollup';

type DeepPartial<T> = T extends (infer U)[] ? U[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

function merge<T>(base: T, over: DeepPartial<T> | undefined): T {
  if (over === undefined) return base;
  if (typeof base !== 'object' || base === null || Array.isArray(base) || typeof over !== 'object' || over === null) return over as T;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(over)) out[k] = v === undefined ? out[k] : merge(out[k], v as never);
  return out as T;
}

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
let n = 0;

/** Ids sort like the companion's (time-ordered). */
export function nextId(): string {
  n++;
  return `x${String(n).padStart(6, '0')}`;
}

export function fakeSummary(over: DeepPartial<ExchangeSummary> = {}): ExchangeSummary {
  const id = (over.id as string | undefined) ?? nextId();
  const startedAt = (over.startedAt as number | undefined) ?? T0 + Number(id.replace(/\D/g, '') || 0) * 1000;
  const base: ExchangeSummary = {
    id,
    kind: 'model',
    transport: 'http',
    status: 'completed',
    startedAt,
    firstByteAt: startedAt + 100,
    endedAt: startedAt + 1200,
    method: 'POST',
    path: '/v1/responses',
    httpStatus: 200,
    model: 'gpt-5-codex',
    requestKind: 'turn',
    sessionId: 'sess-1',
    threadId: 'thread-1',
    parentThreadId: null,
    turnId: 'turn-1',
    agent: { role: 'main', name: '/root', nickname: null },
    usage: { inputTokens: 5000, cachedTokens: 4096, cacheWriteTokens: null, outputTokens: 40, reasoningTokens: 24, totalTokens: 5040 },
    codexCounted: true,
    error: null,
    captureComplete: true,
    route: {
      profileId: 'default',
      upstream: 'https://api.openai.com/v1',
      auth: 'apikey',
      modelRequested: 'gpt-5-codex',
      modelSent: 'gpt-5-codex',
    },
    responseId: `resp_${id}`,
    preview: 'Hello from the fake upstream.',
    requestBytes: 12000,
    responseBytes: 3000,
    cache: {
      verdict: 'hit',
      why: 'read 4,096 cached tokens where 4,096 were expected',
      whyCode: null,
      hitRate: 0.82,
      miss: false,
      reasons: [],
      expectedCachedTokens: 4096,
      missedTokens: null,
      missCostUsd: null,
    },
    costUsd: 0.0023,
    facts: null,
    source: 'captured',
  };
  return merge(base, { ...over, id, startedAt });
}

/** A roll-up as the companion sends it: its derived figures (cached share, cost status) follow its sums unless given. */
export function fakeRollup(over: DeepPartial<UsageRollup> = {}): UsageRollup {
  const sums = merge<UsageRollup>(
    {
      codexTokensUsed: 916,
      inputTokens: 5000,
      cachedTokens: 4096,
      cacheWriteTokens: 0,
      outputTokens: 12,
      reasoningTokens: 0,
      totalTokens: 5012,
      exchanges: 1,
      exchangesWithUsage: 1,
      allTrafficTokens: 916,
      uncounted: { subagentTokens: 0, prewarmTokens: 0, remoteCompactionTokens: 0, unfinishedTokens: 0, otherTokens: 0 },
      costUsd: 0.0016,
      apiEquivalentUsd: 0,
      unpricedTokens: 0,
      unpricedExchanges: 0,
      unknownUsageExchanges: 0,
      cachedShare: null,
      costStatus: 'priced',
    },
    over,
  );
  const derived = deriveRollup(sums);
  return merge(derived, { cachedShare: over.cachedShare, costStatus: over.costStatus });
}

export function fakeLiveUsage(over: DeepPartial<LiveUsage> = {}): LiveUsage {
  return merge<LiveUsage>({ timeZone: 'UTC', today: fakeRollup(), session: { sessionId: 'sess-1', usage: fakeRollup() } }, over);
}

/**
 * A reading taken at `observedAt` (default: now, so the windows have not reset yet): the 5-hour
 * window resets an hour later, the weekly one a day later.
 */
export function fakeRateLimits(primaryUsed: number | null = 42, secondaryUsed: number | null = 10, observedAt = Date.now()): RateLimits {
  const at = Math.floor(observedAt / 1000);
  return {
    observedAt,
    codex: [
      {
        limitId: 'codex',
        limitName: null,
        primary: { usedPercent: primaryUsed, windowMinutes: 300, resetsAt: at + 3600 },
        secondary: { usedPercent: secondaryUsed, windowMinutes: 10080, resetsAt: at + 86400 },
      },
    ],
    credits: null,
    api: null,
    planType: 'plus',
    promoMessage: null,
    reachedType: null,
  };
}

export const DEFAULT_PROFILE: ProfilePublic = {
  id: 'default',
  name: 'Codex credentials (default)',
  baseUrl: null,
  keyMasked: null,
  modelOverride: null,
  forwardCodexCredentials: false,
  builtin: true,
};

export function fakeSnapshot(
  seq: number,
  exchanges: ExchangeSummary[] = [],
  over: Partial<Extract<ServerMessage, { type: 'feed/snapshot' }>> = {},
) {
  return {
    type: 'feed/snapshot' as const,
    seq,
    protocol: PROTOCOL_VERSION,
    companionVersion: '0.1.0',
    exchanges,
    usage: fakeLiveUsage(),
    rateLimits: null,
    profile: DEFAULT_PROFILE,
    capture: { paused: false, errors: 0, lastError: null },
    streaming: 0,
    ...over,
  };
}
