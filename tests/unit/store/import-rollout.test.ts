import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rollupUsage } from '../../../companion/analysis';
import { createLogger } from '../../../companion/lib/log';
import { ExchangeRecordSchema } from '../../../companion/protocol/exchange';
import { rolloutFiles, readTextFile } from '../../../companion/store/import/files';
import { ADDED_PAGE, importHistory } from '../../../companion/store/import/import';
import { parseRollout } from '../../../companion/store/import/rollout';
import { Store } from '../../../companion/store/store';
import { tempHome } from '../../support/companion';
import { importContext } from '../../support/import';

const log = createLogger('silent');
const FIXTURES = path.resolve('tests/fixtures/rollouts');
const fixture = (name: string) => path.join(FIXTURES, name);
const homes: string[] = [];
function store(): Store {
  const h = tempHome('codex-devtools-import-');
  homes.push(h);
  return Store.open({ home: h, log });
}
/** What an import gets inside a companion: the store and the capture's analysis over it. */
const ctxOf = (s: Store) => importContext(s, homes.at(-1)!);
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

async function imported(...names: string[]) {
  const s = store();
  const report = await importHistory(ctxOf(s), { codexHomes: names.map(fixture) });
  return { store: s, report, summaries: [...s.summaries()], totals: rollupUsage([...s.summaries()]) };
}

describe('importing Codex rollouts', () => {
  it.each([
    ['resumed', 916 * 2, 2],
    ['subagent-v1', 2660, 4],
    ['subagent-v2', 2460, 4],
    ['compaction-local', 300996, 3],
    ['compaction-remote', 50966, 3],
    ['incomplete', 4300, 1],
    ['zstd', 2120, 2],
  ])('%s: "as Codex counts" equals the tokens used Codex printed', async (name, printed, responses) => {
    const { totals, report } = await imported(name);
    expect(report.errors).toEqual([]);
    expect(report.malformed).toBe(0);
    expect(totals.exchanges).toBe(responses);
    expect(totals.codexTokensUsed).toBe(printed);
  });

  it('makes one exchange per response, keyed by its response id, in the documented record schema', async () => {
    const { store: s, summaries } = await imported('subagent-v1');
    expect(summaries.map((x) => x.responseId).sort()).toEqual(['resp_3', 'resp_4', 'resp_5', 'resp_6']);
    expect(summaries.every((x) => x.source === 'rollout' && x.kind === 'model' && x.status === 'completed')).toBe(true);
    for (const x of summaries) expect(ExchangeRecordSchema.safeParse(await s.get(x.id)).success).toBe(true);
  });

  it('keeps the thread tree: the sub-agent is a child of the root thread with its nickname, and is not counted', async () => {
    const { summaries } = await imported('subagent-v1');
    const child = summaries.find((x) => x.agent.role === 'subagent')!;
    const root = summaries.find((x) => x.agent.role === 'main')!;
    expect(child).toMatchObject({
      parentThreadId: root.threadId,
      sessionId: root.sessionId,
      codexCounted: false,
      agent: { nickname: 'Einstein' },
    });
    expect(summaries.filter((x) => x.threadId === root.threadId)).toHaveLength(3);
    const v2 = (await imported('subagent-v2')).summaries.find((x) => x.agent.role === 'subagent')!;
    expect(v2.agent).toEqual({ role: 'subagent', name: '/root/greeter', nickname: 'Popper' });
  });

  it('marks compaction responses and counts the local one but not the remote one', async () => {
    const local = (await imported('compaction-local')).summaries.filter((x) => x.requestKind === 'compaction');
    const remote = (await imported('compaction-remote')).summaries.filter((x) => x.requestKind === 'compaction');
    expect(local.map((x) => [x.responseId, x.codexCounted])).toEqual([['resp_8', true]]);
    expect(remote.map((x) => [x.responseId, x.codexCounted])).toEqual([['resp_r102', false]]);
  });

  it('rebuilds what the rollout holds: the input so far, the response output and the model, without headers', async () => {
    const { store: s, summaries } = await imported('resumed');
    const second = (await s.get(summaries[1].id))!;
    const input = (second.request.body as { input: { role?: string; content?: { text?: string }[] }[] }).input;
    expect(input.at(-1)?.content?.[0]?.text).toBe('again please');
    expect(input.some((i) => i.role === 'assistant')).toBe(true);
    expect(second.response.output[0]).toMatchObject({ type: 'message', role: 'assistant' });
    expect(second.model).toBe('gpt-5-codex');
    expect(second.request.headers).toEqual({});
    expect(second.request.bodyNote).toMatch(/rollout/);
    expect(second.costUsd).toBeGreaterThan(0);
  });

  it('counts an exec resume appended to the same file as the later turn of the same thread', async () => {
    const { summaries } = await imported('resumed');
    expect(new Set(summaries.map((x) => x.threadId)).size).toBe(1);
    expect(new Set(summaries.map((x) => x.turnId)).size).toBe(2);
  });

  it('reads archived sessions and a fork once each: the fork adds only its own response', async () => {
    const { summaries, report } = await imported('forked');
    expect(report.files).toBe(2);
    expect(summaries).toHaveLength(2);
    expect(new Set(summaries.map((x) => x.threadId)).size).toBe(2);
  });

  it('counts a legacy fork that replays its parent once, from token_count, never adding reasoning to output', async () => {
    const { summaries, totals } = await imported('legacy-fork');
    // Parent: two responses (one token_count repeated unchanged); the fork: its own one only.
    expect(summaries).toHaveLength(3);
    expect(totals.codexTokensUsed).toBe(200 + 50 + (400 + 80) + (500 + 40));
    expect(totals.outputTokens).toBe(50 + 80 + 40);
    expect(totals.reasoningTokens).toBe(30);
    expect(summaries[0].usage?.totalTokens).toBeNull();
    expect(totals.totalTokens).toBe(1250 + 1580 + 2040);
    expect(summaries.map((x) => x.responseId)).toEqual([null, null, null]);
    const fork = summaries.find((x) => x.preview === 'forked answer')!;
    expect(fork.threadId).toBe('0198a000-0000-7000-8000-00000000cccc');
  });

  it('reads rate limits and the plan from token_count', async () => {
    const { store: s, summaries } = await imported('legacy-fork');
    const r = (await s.get(summaries[0].id))!;
    expect(r.rateLimits).toMatchObject({ planType: 'plus', codex: [{ primary: { usedPercent: 12.5, windowMinutes: 300 } }] });
    expect(r.route.auth).toBe('chatgpt');
  });

  it('skips and counts malformed lines, and a torn last line, without losing the good ones', async () => {
    const { report, totals } = await imported('malformed');
    expect(report.malformed).toBe(5);
    expect(totals.codexTokensUsed).toBe(4300);
  });

  it('changes nothing when the same files are imported again', async () => {
    const s = store();
    const ctx = ctxOf(s);
    const first = await importHistory(ctx, { codexHomes: [fixture('subagent-v1'), fixture('legacy-fork')] });
    const bytes = s.bytes();
    // Known responses are looked up one by one, never by reading the whole history.
    const readAll = vi.spyOn(s, 'summaries');
    const again = await importHistory(ctx, { codexHomes: [fixture('subagent-v1'), fixture('legacy-fork')] });
    expect(readAll).not.toHaveBeenCalled();
    expect(first.added).toBe(7);
    expect(again).toMatchObject({ added: 0, duplicates: 7 });
    expect(s.bytes()).toBe(bytes);
    // Also after a restart: the store is read back from disk.
    const reopened = Store.open({ home: homes[0], log });
    expect((await importHistory(ctxOf(reopened), { codexHomes: [fixture('legacy-fork')] })).added).toBe(0);
  });

  it('skips a response already captured on the wire (same response id): it is counted once', async () => {
    const s = store();
    const file = rolloutFiles(fixture('incomplete'))[0];
    const [record] = parseRollout(readTextFile(file), { file }).records;
    await s.append({ ...record, id: '0000captured000000aa', source: 'captured' });
    const report = await importHistory(ctxOf(s), { codexHomes: [fixture('incomplete')] });
    expect(report).toMatchObject({ added: 0, duplicates: 1 });
    expect(rollupUsage([...s.summaries()]).codexTokensUsed).toBe(4300);
  });

  it('reports a file it cannot read and goes on with the others', async () => {
    const s = store();
    const broken = path.join(homes[0], 'rollout-broken.jsonl.zst');
    fs.writeFileSync(broken, 'not zstd at all');
    const report = await importHistory(ctxOf(s), { files: [broken], codexHomes: [fixture('incomplete')] });
    expect(report.errors).toEqual([expect.stringMatching(/rollout-broken\.jsonl\.zst is not valid zstd/)]);
    expect(report.added).toBe(1);
  });

  it('tells what it added a page of ids at a time, the final page marked, and not what it skipped', async () => {
    const s = store();
    const file = rolloutFiles(fixture('incomplete'))[0];
    const [record] = parseRollout(readTextFile(file), { file }).records;
    const n = ADDED_PAGE * 2 + 3;
    const jsonl = path.join(homes[0], 'export.jsonl');
    const ids = Array.from({ length: n }, (_, i) => `${record.id}${String(i).padStart(4, '0')}`);
    fs.writeFileSync(jsonl, ids.map((id, i) => JSON.stringify({ ...record, id, responseId: `resp_page_${i}` })).join('\n'));
    const pages: [number, boolean][] = [];
    const announced: string[] = [];
    const onAdded = (page: string[], last: boolean) => {
      pages.push([page.length, last]);
      announced.push(...page);
    };
    const report = await importHistory({ ...ctxOf(s), onAdded }, { files: [jsonl] });
    expect(report.added).toBe(n);
    expect(pages).toEqual([
      [ADDED_PAGE, false],
      [ADDED_PAGE, false],
      [3, true],
    ]);
    expect(announced).toEqual(ids);
    pages.length = 0;
    await importHistory({ ...ctxOf(s), onAdded }, { files: [jsonl] });
    expect(pages).toEqual([]);
  });
});
