import { beforeAll, describe, expect, it } from 'vitest';
import { contextBreakdown } from '../../../companion/analysis/context';
import type { ExchangeRecord } from '../../../companion/protocol';
import { contextView, GROUP_ORDER } from '../../../extension/lib/context-view';
import { requestLayout } from '../../../companion/analysis/layout';
import { liveToolIndex } from '../../../extension/lib/live-tools';

const requestTools = (body: unknown) => requestLayout(body).tools;
const requestEntries = (body: unknown) => requestLayout(body).entries;
import { analyseAll, loadFixture, recordOf } from '../../support/records';

describe('the request layout the companion serves, as the Context tab shows it', () => {
  let codeMode: ExchangeRecord;
  let fallback: ExchangeRecord;
  let withTools: ExchangeRecord;

  /** A captured exchange carrying the full (unelided) request body of another capture. */
  async function withBody(requestsFile: string, n = 0): Promise<ExchangeRecord> {
    const base = await recordOf('a-plain-text-1.json');
    const { requests } = loadFixture(`../requests/${requestsFile}`) as unknown as { requests: { body: unknown }[] };
    return analyseAll([{ ...base, request: { ...base.request, body: requests[n].body } }])[0];
  }

  beforeAll(async () => {
    [codeMode] = analyseAll([await recordOf('codemode-text-1.json')]);
    fallback = await withBody('gpt-5-codex-default.json');
    withTools = await withBody('gpt-5.5-tool-search.json', 1);
  });

  it('finds the tools of the tools field, namespaces expanded', () => {
    const keys = requestTools(fallback.request.body).map((t) => t.key);
    expect(keys).toContain('exec_command');
    expect(keys).toContain('multi_agent_v1.spawn_agent');
    expect(requestTools(fallback.request.body).every((t) => t.placement === 'tools')).toBe(true);
  });

  it('finds a code-mode model’s tools in its additional_tools item, with exec’s declared tools nested under exec', () => {
    const tools = requestTools(codeMode.request.body);
    const exec = tools.find((t) => t.key === 'exec');
    expect(exec?.placement).toBe('additional_tools');
    expect(exec?.nested.map((n) => n.key)).toContain('exec/exec_command');
    expect(exec?.nested.find((n) => n.key === 'exec/apply_patch')?.description).toMatch(/^### `apply_patch`/);
    expect(tools.some((t) => t.key === 'wait')).toBe(true);
  });

  it('finds deferred tools where a tool_search_output item loads them', () => {
    const loaded = requestTools(withTools.request.body).filter((t) => t.placement === 'tool_search_output');
    expect(loaded.map((t) => t.key)).toContain('multi_agent_v1.spawn_agent');
    expect(loaded[0].itemIndex).toBeGreaterThan(0);
  });

  it('uses the same tool keys as the companion’s token estimates, so every tool section has a tool', () => {
    const view = contextView(codeMode.request.body, requestLayout(codeMode.request.body), codeMode.analysis!.context);
    const keys = new Set([...view.tools, ...view.tools.flatMap((t) => t.nested)].map((t) => t.key));
    const sections = codeMode.analysis!.context!.sections.filter((s) => s.group === 'tools').map((s) => s.name.slice(5));
    expect(sections.length).toBeGreaterThan(5);
    for (const k of sections) expect(keys).toContain(k);
  });

  it('puts the leading developer messages under Instructions and the rest under Input, with the companion’s section names', () => {
    for (const record of [codeMode, fallback]) {
      const entries = requestEntries(record.request.body);
      const analysed = new Map(record.analysis!.context!.sections.filter((s) => s.group !== 'tools').map((s) => [s.name, s.group]));
      for (const e of entries) expect(analysed.get(e.section), `${e.section} (${e.label})`).toBe(e.group);
      const view = contextView(record.request.body, requestLayout(record.request.body), record.analysis!.context);
      expect(view.groups.instructions.sections.map((s) => s.name)).toContain('instructions');
      expect(view.groups.input.sections.map((s) => s.name)).toContain('conversation: user');
      expect(view.groups.input.sections.map((s) => s.name)).toContain('environment context');
    }
  });

  it('gives each entry the opaque bytes its section counts: files, encrypted parts, images in outputs', () => {
    const image = { type: 'input_image', image_url: `data:image/png;base64,${'A'.repeat(300)}` };
    const body = {
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'base instructions' }] },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'read these' },
            { type: 'input_file', filename: 'notes.pdf', file_data: 'B'.repeat(200) },
            { type: 'input_text', encrypted_content: 'C'.repeat(100) },
            image,
          ],
        },
        { type: 'function_call', call_id: 'c1', name: 'view_image', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'here' }, image] },
        { type: 'agent_message', author: 'a', recipient: 'b', content: [{ type: 'input_file', file_id: 'f1' }] },
        { type: 'reasoning', summary: [], encrypted_content: 'D'.repeat(50) },
      ],
    };
    const sections = contextBreakdown(body, { reportedInputTokens: null, contextWindow: null }).sections;
    const entries = requestEntries(body);
    const counted = ['conversation: user', 'tool outputs', 'agent messages', 'reasoning'];
    for (const name of counted) expect(sections.find((s) => s.name === name)?.opaqueBytes, name).toBeGreaterThan(0);
    for (const s of sections.filter((x) => x.group !== 'tools')) {
      const entryBytes = entries.filter((e) => e.section === s.name).reduce((n, e) => n + e.opaqueBytes, 0);
      expect(entryBytes, s.name).toBe(s.opaqueBytes);
    }
  });

  it('sums each group from the analysis so Tools + Instructions + Input (+ Other) equal the estimate total', () => {
    const view = contextView(codeMode.request.body, requestLayout(codeMode.request.body), codeMode.analysis!.context);
    const sum = GROUP_ORDER.reduce((n, g) => n + (view.groups[g].figures?.tokens ?? 0), 0);
    expect(sum).toBe(codeMode.analysis!.context!.totalTokens);
    const calibrated = GROUP_ORDER.reduce((n, g) => n + (view.groups[g].figures?.calibratedTokens ?? 0), 0);
    expect(calibrated).toBe(codeMode.usage!.inputTokens);
  });

  it('hands the doc sheet each tool as sent, by its doc key, nested ones included', () => {
    const index = liveToolIndex(requestTools(codeMode.request.body));
    expect(index.get('exec_command')?.description).toMatch(/^### `exec_command`/);
    expect(index.get('collaboration.spawn_agent')?.schema).toMatchObject({ type: 'object' });
    expect(index.has('functions.wait')).toBe(false);
    expect(index.has('wait')).toBe(true);
  });
});
