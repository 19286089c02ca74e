/** @module Who sent a request, taken from Codex's own headers and metadata, never from prompt text. */
import { z } from 'zod';

export const RequestKindSchema = z.enum(['turn', 'prewarm', 'compaction', 'unknown']);
export type RequestKind = z.infer<typeof RequestKindSchema>;

export const IdentitySchema = z.object({
  sessionId: z.string().nullable(),
  threadId: z.string().nullable(),
  parentThreadId: z.string().nullable(),
  turnId: z.string().nullable(),
  rootTurnId: z.string().nullable(),
  parentTurnId: z.string().nullable(),
  /** `/root` for the main agent; `/root/<task>` for multi-agent v2 children. */
  agentName: z.string().nullable(),
  /** Learned later from the parent's `spawn_agent` output (multi-agent v1). */
  agentNickname: z.string().nullable(),
  role: z.enum(['main', 'subagent']),
  /** `user` or `subagent` as Codex reports it. */
  threadSource: z.string().nullable(),
  /** `x-openai-subagent` header (`collab_spawn`, `review`, `guardian`, …). */
  subagentHeader: z.string().nullable(),
  subagentKind: z.string().nullable(),
  requestKind: RequestKindSchema,
  /** `responses` (local) or `responses_compaction_v2` (remote) on compaction requests. */
  compactionImplementation: z.string().nullable(),
  windowNumber: z.number().nullable(),
  windowId: z.string().nullable(),
  originator: z.string().nullable(),
  clientVersion: z.string().nullable(),
  promptCacheKey: z.string().nullable(),
  model: z.string().nullable(),
  reasoningEffort: z.string().nullable(),
});
export type Identity = z.infer<typeof IdentitySchema>;
