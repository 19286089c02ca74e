import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { scenarios } from '../support/scenarios';
import { runCodex } from '../support/codex';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { openFeed, type TestFeed } from '../support/live-client';

describe('the live feed during a real Codex run', () => {
  let upstream: FakeUpstream;
  let c: TestCompanion;
  let feed: TestFeed;
  let tokensUsed: number | null;

  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: scenarios.toolCall() });
    c = await startTestCompanion({ apiUpstream: upstream.baseUrl });
    feed = await openFeed(c.url, { token: c.token(), origin: 'chrome-extension://dceflbcgefibjiafpacongiijjkjedae' });
    await feed.waitFor('feed/snapshot');
    const run = await runCodex({ prompt: 'run echo hi', baseUrl: `${c.url}/v1` });
    tokensUsed = run.tokensUsed;
    run.cleanup();
    await c.idle();
  });
  afterAll(async () => {
    feed.close();
    await c.dispose();
    await upstream.close();
  });

  it('delivers started and completed for each exchange, in order, and usage equal to what Codex printed', async () => {
    const started = feed.messages.filter((m) => m.type === 'exchange/started');
    const completed = feed.messages.filter((m) => m.type === 'exchange/completed');
    expect(started).toHaveLength(2);
    expect(completed.map((m) => m.exchange.id)).toEqual(started.map((m) => m.exchange.id));
    for (const s of started) {
      const i = feed.messages.indexOf(s);
      const j = feed.messages.findIndex((m) => m.type === 'exchange/completed' && m.exchange.id === s.exchange.id);
      expect(i).toBeLessThan(j);
    }
    expect(completed.every((m) => m.exchange.status === 'completed' && m.exchange.agent.role === 'main')).toBe(true);
    const usage = feed.messages.filter((m) => m.type === 'usage/updated').at(-1);
    expect(usage?.usage.session?.usage.codexTokensUsed).toBe(tokensUsed);
    expect(usage?.usage.today.codexTokensUsed).toBe(tokensUsed);
    expect(feed.invalid).toEqual([]);
  });
});
