// @vitest-environment happy-dom
import '../../support/happy-dom-node-accessors';
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import ThreadTable from '../../../extension/components/sessions/ThreadTable.vue';
import TurnTable from '../../../extension/components/sessions/TurnTable.vue';
import { exchangeFacts } from '../../../companion/analysis/analyze';
import { buildSessionThreads } from '../../../companion/analysis/thread-tree';
import { usageByTurn } from '../../../companion/analysis/usage-rollup';
import type { ExchangeRecord } from '../../../companion/protocol';
import { analyseAll, httpFixtureFiles, OLD_FIXTURES, runRecords, runsOf } from '../../support/records';

async function subagentSession(edit: (records: ExchangeRecord[]) => void = () => {}) {
  const records = await analyseAll(await runRecords('e-subagent-v1', runsOf(httpFixtureFiles(OLD_FIXTURES)).get('e-subagent-v1')!));
  edit(records);
  const summaries = records.map((r) => ({ ...r, facts: exchangeFacts(r) }));
  return { turns: usageByTurn(summaries), threads: buildSessionThreads(summaries)[0].roots };
}

const cells = (w: ReturnType<typeof mount>, field: string) =>
  w.findAll('[data-testid="turn-row"]').map((r) => r.get(`[data-field="${field}"]`).text());

describe('the turn table', () => {
  it('shows each turn with its agent and the tokens Codex counts, the sub-agent’s turn apart', async () => {
    const { turns, threads } = await subagentSession();
    const w = mount(TurnTable, { props: { turns, threads } });
    const rows = w.findAll('[data-testid="turn-row"]');
    expect(rows).toHaveLength(2);
    expect(rows[0].text()).toContain('main agent');
    expect(rows[1].text()).toContain('Nietzsche');
    // Codex's own figure for the parent's turn; the sub-agent's traffic is not in it.
    expect(cells(w, 'codex-tokens')).toEqual(['2,996', '0']);
  });

  it('says unknown, not 0, for a turn whose exchanges reported no usage', async () => {
    const { turns, threads } = await subagentSession((records) => {
      const child = records.find((r) => r.agent.role === 'subagent')!;
      child.usage = null;
      child.costUsd = null;
    });
    const w = mount(TurnTable, { props: { turns, threads } });
    const child = w.findAll('[data-testid="turn-row"]')[1];
    expect(child.get('[data-field="codex-tokens"]').text()).toBe('unknown');
    expect(child.get('[data-field="cost"]').text()).toBe('unknown');
  });
});

describe('the thread table', () => {
  it('says unknown, not 0, for a thread whose exchanges reported no usage', async () => {
    const { threads } = await subagentSession((records) => {
      const child = records.find((r) => r.agent.role === 'subagent')!;
      child.usage = null;
      child.costUsd = null;
    });
    const w = mount(ThreadTable, { props: { roots: threads } });
    const [root, child] = w.findAll('[data-testid="thread-row"]');
    const figures = (row: typeof root) =>
      row
        .findAll('td.num')
        .slice(1)
        .map((td) => td.text());
    // Own tokens, rolled-up tokens, own cost, rolled-up cost.
    expect(figures(child)).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
    expect(figures(root).slice(0, 2)).toEqual(['2,996', '2,996']);
  });
});
