import { describe, expect, it } from 'vitest';
import { countedByCodex, type CountFacts } from '../../../companion/analysis/codex-count';
import { ExchangeStatusSchema } from '../../../companion/protocol/exchange';
import { RequestKindSchema } from '../../../companion/protocol/identity';

/** A finished root-thread turn: the response Codex counts. */
const turn: CountFacts = { kind: 'model', role: 'main', status: 'completed', requestKind: 'turn', compactionImplementation: null };

describe('which responses enter the tokens used Codex prints', () => {
  it('counts a root thread’s completed or incomplete turn', () => {
    expect(countedByCodex(turn)).toBe(true);
    expect(countedByCodex({ ...turn, status: 'incomplete' })).toBe(true);
  });

  it('never counts an unfinished attempt', () => {
    const unfinished = ExchangeStatusSchema.options.filter((s) => s !== 'completed' && s !== 'incomplete');
    expect(unfinished).toEqual(['streaming', 'failed', 'aborted', 'upstream_error']);
    for (const status of unfinished) {
      expect(countedByCodex({ ...turn, status })).toBe(false);
      expect(countedByCodex({ ...turn, status, requestKind: 'compaction', compactionImplementation: 'responses' })).toBe(false);
    }
  });

  it('never counts a sub-agent or a non-model exchange, whatever it is', () => {
    expect(countedByCodex({ ...turn, role: 'subagent' })).toBe(false);
    expect(countedByCodex({ ...turn, kind: 'other' })).toBe(false);
    const localCompaction = { ...turn, requestKind: 'compaction', compactionImplementation: 'responses' } as const;
    expect(countedByCodex({ ...localCompaction, role: 'subagent' })).toBe(false);
    expect(countedByCodex({ ...localCompaction, kind: 'other' })).toBe(false);
  });

  it('counts a local compaction but not a remote one', () => {
    const compaction = { ...turn, requestKind: 'compaction' } as const;
    expect(countedByCodex({ ...compaction, compactionImplementation: 'responses' })).toBe(true);
    expect(countedByCodex({ ...compaction, status: 'incomplete', compactionImplementation: 'responses' })).toBe(true);
    expect(countedByCodex({ ...compaction, compactionImplementation: 'responses_compaction_v2' })).toBe(false);
    expect(countedByCodex({ ...compaction, compactionImplementation: null })).toBe(false);
  });

  it('counts neither prewarm nor a request of unknown kind, even marked as a local compaction', () => {
    const others = RequestKindSchema.options.filter((k) => k !== 'turn' && k !== 'compaction');
    expect(others).toEqual(['prewarm', 'unknown']);
    for (const requestKind of others) {
      expect(countedByCodex({ ...turn, requestKind })).toBe(false);
      expect(countedByCodex({ ...turn, requestKind, compactionImplementation: 'responses' })).toBe(false);
    }
  });

  it('counts a turn whatever compaction implementation it names', () => {
    expect(countedByCodex({ ...turn, compactionImplementation: 'responses_compaction_v2' })).toBe(true);
  });
});
