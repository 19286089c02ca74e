/**
 * @module JSONL export: one exchange record per line, in the schema of protocol/exchange.ts
 * (what `codex-devtools import FILE.jsonl` reads back). Records hold no credentials: capture
 * redacted them before storing.
 */
import type { ExchangeRecord } from '../../protocol/exchange';

export function toJsonl(records: readonly ExchangeRecord[]): string {
  return records.map((r) => JSON.stringify(r) + '\n').join('');
}
