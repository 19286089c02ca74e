import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { acceptWebSockets, type FakeWs } from '../support/fake-ws';
import { scenarios } from '../support/scenarios';
import { prepareCodex, runPrepared, type CodexOutput, type PreparedCodex } from '../support/codex';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { fakeKey } from '../support/keys';

describe('switching profile while Codex is connected over the WebSocket', () => {
  let a: FakeUpstream;
  let b: FakeUpstream;
  let wsA: FakeWs;
  let wsB: FakeWs;
  let c: TestCompanion;
  let prepared: PreparedCodex;
  let first: CodexOutput;
  let second: CodexOutput;

  beforeAll(async () => {
    a = await startFakeUpstream({ scenario: scenarios.toolCall() });
    b = await startFakeUpstream({ scenario: scenarios.toolCall() });
    const base = scenarios.toolCall();
    let switched = false;
    // The switch happens while the first turn is in flight: as the upstream answers its first request.
    wsA = acceptWebSockets(a, {
      scenario: async (req) => {
        const plan = await base(req);
        if (!switched && req.body.input.at(-1)?.type === 'message') {
          switched = true;
          c.profiles.activate('b');
        }
        return plan;
      },
    });
    wsB = acceptWebSockets(b, { scenario: scenarios.toolCall() });
    c = await startTestCompanion({ apiUpstream: a.baseUrl });
    c.profiles.upsert({ id: 'b', name: 'B', baseUrl: b.baseUrl, apiKey: fakeKey('profile-b-0123456789') });
    prepared = prepareCodex({ prompt: 'run echo hi', provider: 'builtin', baseUrl: `${c.url}/v1` });
    first = await runPrepared(prepared);
    second = await runPrepared(prepared, ['exec', '--skip-git-repo-check', 'resume', '--last', 'run echo hi again']);
    await c.idle();
  });
  afterAll(async () => {
    prepared.cleanup();
    await c.dispose();
    await a.close();
    await b.close();
  });

  it('keeps the turn in flight on its route: Codex reconnects and resends the full context, and finishes', async () => {
    expect(first.exitCode).toBe(0);
    expect(first.stdout + first.stderr).toContain('The command printed: hi');
    expect(wsA.handshakes).toHaveLength(2);
    const reconnect = wsA.frames.filter((f) => f.dir === 'in' && f.conn === 2).map((f) => f.data);
    expect(reconnect[0].previous_response_id).toBeUndefined();
    expect(reconnect[0].input.map((i: any) => i.type).slice(-2)).toEqual(['function_call', 'function_call_output']);
    const firstTurn = (await c.store.list({ limit: 100 })).items.reverse().slice(0, 3);
    expect(firstTurn.map((s) => [s.requestKind, s.route.profileId, s.status])).toEqual([
      ['prewarm', 'default', 'completed'],
      ['turn', 'default', 'completed'],
      ['turn', 'default', 'completed'],
    ]);
    expect(first.tokensUsed).toBe(1956);
  });

  it('sends the next turn to the new profile with the whole conversation: nothing is lost', async () => {
    expect(second.exitCode).toBe(0);
    expect(second.stdout + second.stderr).toContain('The command printed: hi');
    expect(wsB.handshakes.length).toBeGreaterThan(0);
    expect(wsB.handshakes[0].headers.authorization).toBe(`Bearer ${fakeKey('profile-b-0123456789')}`);
    const firstOnB = wsB.frames.find((f) => f.dir === 'in' && f.data.generate !== false)!.data;
    const texts = JSON.stringify(firstOnB.input);
    expect(texts).toContain('run echo hi');
    expect(texts).toContain('The command printed: hi');
    expect(texts).toContain('run echo hi again');
    const later = (await c.store.list({ limit: 100 })).items.reverse().slice(3);
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((s) => s.route.profileId === 'b' && s.status === 'completed')).toBe(true);
  });
});
