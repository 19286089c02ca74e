import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../companion/lib/log';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { sessionContext } from '../../../companion/analysis/session-context';
import { Store, type ListQuery } from '../../../companion/store/store';
import { tempHomes } from '../../support/companion';
import { codexSession, stepRecord } from '../../support/session';
import { storesClosedAfterEach } from '../../support/stores';

const log = createLogger('silent');
const homes = tempHomes('codex-devtools-search-');
const closeAfter = storesClosedAfterEach();

const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const ENV = '<environment_context>\n  <cwd>/home/dev/项目/app</cwd>\n  <shell>zsh</shell>\n</environment_context>';

/** A session whose requests carry a prompt each, in English or Chinese, after Codex's own blocks. */
async function session(prompts: string[], matchCap?: number): Promise<{ store: Store; records: ExchangeRecord[] }> {
  const store = closeAfter(Store.open({ home: homes(), log, matchCap }));
  const steps = codexSession(prompts.length);
  const records: ExchangeRecord[] = [];
  for (const [i, step] of steps.entries()) {
    const input = [...step.body.input.slice(0, 2), user(ENV), ...prompts.slice(0, i + 1).map(user)];
    const r = await stepRecord({ ...step, body: { ...step.body, input } });
    records.push(r);
    await store.append(r);
  }
  return { store, records };
}

const ids = (store: Store, q: string) => store.list({ q }).items.map((s) => s.id);

describe('full-text search (FTS5 trigrams)', () => {
  it('finds English word fragments in the request that brought them, case-insensitively', async () => {
    const { store, records } = await session(['Refactor the tokenizer module', 'now add a migration for the database', 'run the tests']);
    expect(ids(store, 'okeniz')).toEqual([records[0].id]);
    expect(ids(store, 'MIGRATION FOR')).toEqual([records[1].id]);
    // A tool call's arguments are found in the response that made the call.
    expect(ids(store, 'src/file2.ts')).toEqual([records[2].id]);
    expect(ids(store, 'no such words')).toEqual([]);
  });

  it('finds an exchange by a nickname learnt after it was stored, and no longer by the one it replaced', async () => {
    const { store, records } = await session(['spawn a helper']);
    const [r] = records;
    await store.update(r.id, { agent: { ...r.agent, role: 'subagent', name: 'worker', nickname: 'Archimedes' } });
    expect(ids(store, 'archimedes')).toEqual([r.id]);
    await store.update(r.id, { agent: { ...r.agent, role: 'subagent', name: 'worker', nickname: 'Euclid' } });
    expect(ids(store, 'euclid')).toEqual([r.id]);
    expect(ids(store, 'archimedes')).toEqual([]);
  });

  it('finds Chinese text inside a run of characters, and falls back to a scan below three characters', async () => {
    const { store, records } = await session(['请重构数据库迁移脚本', '然后添加搜索功能']);
    expect(ids(store, '数据库迁移')).toEqual([records[0].id]);
    expect(ids(store, '搜索功')).toEqual([records[1].id]);
    // Two characters: no trigram to look up, so the stored texts are scanned.
    expect(ids(store, '搜索')).toEqual([records[1].id]);
    expect(ids(store, '库迁')).toEqual([records[0].id]);
    expect(store.list({ q: '搜索' }).matched).toBe(1);
  });

  it('searches sessions and titles them with the first prompt and the working directory', async () => {
    const { store, records } = await session(['请重构数据库迁移脚本', 'then something else']);
    const page = store.sessions({ q: '迁移' });
    expect(page).toMatchObject({ matched: 1, stored: 1 });
    expect(page.items[0]).toMatchObject({
      sessionId: records[0].sessionId,
      title: '请重构数据库迁移脚本',
      cwd: '/home/dev/项目/app',
      rows: 2,
    });
    expect(store.sessions({ q: 'nothing like this' }).items).toEqual([]);
  });
});

describe('the count of a search past the match cap', () => {
  const prompts = ['tokenizer one', 'tokenizer two', 'tokenizer three', 'tokenizer four', 'tokenizer five', 'parser six'];

  it('says "at least the cap" and sets the flag when more exchanges match than the cap', async () => {
    const { store } = await session(prompts, 3);
    expect(store.list({ q: 'okeniz' })).toMatchObject({ matched: 3, matchedCapped: true, stored: 6 });
    // Below three characters the texts are scanned, and the scan stops at the cap too.
    expect(store.list({ q: 'ok' })).toMatchObject({ matched: 3, matchedCapped: true });
  });

  it('gives the exact count, unflagged, when the matches are no more than the cap', async () => {
    const { store, records } = await session(prompts, 3);
    expect(store.list({ q: 'parser' })).toMatchObject({ matched: 1, matchedCapped: false, items: [{ id: records[5].id }] });
    expect(store.list({ q: 'no such words' })).toMatchObject({ matched: 0, matchedCapped: false, items: [] });
    // Exactly the cap is still exact.
    const { store: atCap } = await session(prompts.slice(0, 3), 3);
    expect(atCap.list({ q: 'tokenizer' })).toMatchObject({ matched: 3, matchedCapped: false });
  });

  it('counts under other filters the rows that pass them all, up to the cap', async () => {
    const store = closeAfter(Store.open({ home: homes(), log, matchCap: 3, fewRows: 0 }));
    const { records } = await session(prompts);
    for (const r of records) await store.append(r);
    expect(store.list({ q: 'tokenizer', until: records[2].startedAt })).toMatchObject({ matched: 2, matchedCapped: false });
    expect(store.list({ q: 'tokenizer', since: 0 })).toMatchObject({ matched: 3, matchedCapped: true });
  });

  it('counts exactly, past the cap too, under filters that leave few rows (checked one by one)', async () => {
    const { store, records } = await session(prompts, 3);
    expect(store.list({ q: 'tokenizer', session: records[0].sessionId! })).toMatchObject({ matched: 5, matchedCapped: false });
  });

  it('gathers every match and counts them exactly when the page lies past the rows a walk checks', async () => {
    const store = closeAfter(Store.open({ home: homes(), log, matchCap: 2, walkRows: 2 }));
    const { records } = await session([...prompts.slice(0, 5), 'parser', 'parser again', 'parser once more']);
    for (const r of records) await store.append(r);
    // Newest first, the two rows of the walk hold no "tokenizer": the search falls back to its hits.
    const page = store.list({ q: 'tokenizer', limit: 2 });
    expect(page).toMatchObject({ matched: 5, matchedCapped: false, items: [{ id: records[4].id }, { id: records[3].id }] });
  });

  it('pages a capped search by cursor through every match, in order', async () => {
    const { store, records } = await session(prompts, 2);
    const newestFirst = records
      .slice(0, 5)
      .map((r) => r.id)
      .reverse();
    const pages = (q: ListQuery) => {
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = store.list({ ...q, limit: 2, cursor });
        expect(page).toMatchObject({ matched: 2, matchedCapped: true });
        ids.push(...page.items.map((x) => x.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return ids;
    };
    expect(pages({ q: 'tokenizer' })).toEqual(newestFirst);
    expect(pages({ q: 'ok' })).toEqual(newestFirst);
    expect(pages({ q: 'tokenizer', sort: 'time', order: 'asc' })).toEqual([...newestFirst].reverse());
  });
});

describe('session context', () => {
  it('skips the blocks Codex writes in the user’s role and reads the cwd', () => {
    const agents = user('# AGENTS.md instructions for /repo\n\nbe nice');
    expect(sessionContext([agents, user(ENV), user('  fix\n the   bug  ')])).toEqual({ title: 'fix the bug', cwd: '/home/dev/项目/app' });
    expect(sessionContext([{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'x' }] }])).toEqual({
      title: null,
      cwd: null,
    });
  });
});
