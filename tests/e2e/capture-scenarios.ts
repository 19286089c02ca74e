/**
 * The capture scenarios run with the real Codex CLI, shared by the fallback-model and code-mode
 * model test files (their requests differ in shape: `tools` vs an `additional_tools` item).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureRun, type CaptureRun } from '../support/capture-run';
import type { ScenarioName } from '../support/scenarios';
import type { ExchangeSummary } from '../../companion/protocol/exchange';

/** Σ(max(0, input − cached) + output) over the exchanges the companion marks as counted by Codex. */
export function countedByCompanion(items: ExchangeSummary[]): number {
  return items
    .filter((s) => s.codexCounted)
    .reduce((sum, s) => sum + Math.max(0, (s.usage?.inputTokens ?? 0) - (s.usage?.cachedTokens ?? 0)) + (s.usage?.outputTokens ?? 0), 0);
}

const toolsOf = (body: any): string[] =>
  body.tools?.length
    ? body.tools.map((t: any) => t.name ?? t.type)
    : body.input
        .filter((i: any) => i.type === 'additional_tools')
        .flatMap((i: any) => i.tools.flatMap((ns: any) => ns.tools?.map((t: any) => `${ns.name}.${t.name}`) ?? [ns.name]));

export function captureScenarios(model: string, opts: { codeMode: boolean }) {
  const runs = new Map<string, CaptureRun>();
  const scenario = (name: ScenarioName, extra: { topLevel?: string; tables?: string } = {}) => {
    beforeAll(async () => {
      runs.set(name, await captureRun(name, { model, ...extra }));
    });
    afterAll(async () => runs.get(name)?.dispose());
    return () => runs.get(name)!;
  };

  describe(`a text answer (${model})`, () => {
    const r = scenario('text');
    it('is captured as one completed turn whose token figure equals what Codex printed', () => {
      const { run, summaries, records } = r();
      expect(run.exitCode).toBe(0);
      expect(summaries).toHaveLength(1);
      expect(summaries[0]).toMatchObject({
        status: 'completed',
        requestKind: 'turn',
        model,
        agent: { role: 'main', name: '/root' },
        preview: 'Hello from the fake upstream.',
      });
      expect(run.tokensUsed).toBe(916);
      expect(countedByCompanion(summaries)).toBe(run.tokensUsed);
      const body = records[0].request.body as any;
      expect(body.model).toBe(model);
      if (opts.codeMode) {
        expect(body.tools).toBeUndefined();
        expect(toolsOf(body)).toContain('functions.exec');
      } else {
        expect(toolsOf(body)).toContain('exec_command');
      }
    });
  });

  describe(`a tool-call turn (${model})`, () => {
    const r = scenario('toolCall');
    it('is captured as two exchanges of one thread and turn, the second carrying the command output', () => {
      const { run, summaries, records } = r();
      expect(run.exitCode).toBe(0);
      expect(summaries).toHaveLength(2);
      expect(new Set(summaries.map((s) => s.threadId)).size).toBe(1);
      expect(new Set(summaries.map((s) => s.turnId)).size).toBe(1);
      expect(records[0].response.output[0].type).toBe(opts.codeMode ? 'custom_tool_call' : 'function_call');
      const last = (records[1].request.body as any).input.at(-1);
      expect(last.type).toBe(opts.codeMode ? 'custom_tool_call_output' : 'function_call_output');
      expect(JSON.stringify(last.output)).toContain('hi');
      expect(countedByCompanion(summaries)).toBe(run.tokensUsed);
      expect(run.tokensUsed).toBe(1956);
    });
  });

  describe(`a turn with reasoning (${model})`, () => {
    const r = scenario('reasoning');
    it('keeps the reasoning items and replays, and counts reasoning inside output only', () => {
      const { run, summaries, records } = r();
      expect(run.exitCode).toBe(0);
      expect(records[0].response.output[0]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text' }] });
      const replayed = (records[1].request.body as any).input.find((i: any) => i.type === 'reasoning');
      expect(replayed.encrypted_content).toBe((records[0].response.output[0] as any).encrypted_content);
      expect(summaries.map((s) => s.usage?.reasoningTokens)).toEqual([24, 60]);
      expect(countedByCompanion(summaries)).toBe(run.tokensUsed);
      expect(run.tokensUsed).toBe(2120);
    });
  });

  describe(`a turn that spawns a sub-agent (${model}, ${opts.codeMode ? 'collaboration' : 'multi_agent_v1'})`, () => {
    const r = scenario(opts.codeMode ? 'subagentV2' : 'subagentV1');
    it('links the child thread to its parent and leaves the child out of the Codex figure', () => {
      const { run, summaries } = r();
      expect(run.exitCode).toBe(0);
      const child = summaries.filter((s) => s.agent.role === 'subagent');
      const parent = summaries.filter((s) => s.agent.role === 'main');
      expect(child).toHaveLength(1);
      expect(parent.length).toBeGreaterThanOrEqual(3);
      expect(child[0].parentThreadId).toBe(parent[0].threadId);
      expect(child[0].threadId).not.toBe(parent[0].threadId);
      expect(child[0].sessionId).toBe(parent[0].sessionId);
      expect(child[0].codexCounted).toBe(false);
      if (opts.codeMode) expect(child[0].agent.name).toBe('/root/greeter');
      expect(countedByCompanion(summaries)).toBe(run.tokensUsed);
    });
  });

  describe(`a turn with local compaction (${model})`, () => {
    const r = scenario('localCompaction', { topLevel: 'model_auto_compact_token_limit = 10000' });
    it('captures the compaction request, moves to the next window, and counts as Codex does', () => {
      const { run, summaries, records } = r();
      expect(run.exitCode).toBe(0);
      expect(summaries.map((s) => s.requestKind)).toEqual(['turn', 'compaction', 'turn']);
      expect(records.map((x) => x.identity.windowNumber)).toEqual([0, 0, 1]);
      expect(records[1].identity.compactionImplementation).toBe('responses');
      // The summary request sends no tools field entries (code-mode history still holds its additional_tools item).
      expect((records[1].request.body as any).tools ?? []).toEqual([]);
      expect(countedByCompanion(summaries)).toBe(run.tokensUsed);
      expect(run.tokensUsed).toBe(300996);
    });
  });
}
