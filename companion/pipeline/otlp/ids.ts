/**
 * @module Deterministic trace and span ids. A turn's trace id and root span id follow from its
 * thread and turn ids alone, so an exchange's span can name its parent before the root span is
 * sent, and a sub-agent's turn can link to the spawning turn from the ids Codex sends
 * (`parent_thread_id`, `parent_turn_id`) without the exporter remembering anything.
 */
import { createHash } from 'node:crypto';

function hex(parts: string[], bytes: number): string {
  return createHash('sha256')
    .update(parts.join('\0'))
    .digest('hex')
    .slice(0, bytes * 2);
}

export interface TurnKey {
  threadId: string;
  turnId: string;
}

export const traceIdOf = (k: TurnKey): string => hex(['codex-devtools trace', k.threadId, k.turnId], 16);
export const turnSpanIdOf = (k: TurnKey): string => hex(['codex-devtools turn', k.threadId, k.turnId], 8);
export const exchangeSpanIdOf = (exchangeId: string): string => hex(['codex-devtools exchange', exchangeId], 8);
