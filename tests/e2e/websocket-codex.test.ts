import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { acceptWebSockets, type FakeWs } from '../support/fake-ws';
import { scenarios } from '../support/scenarios';
import { runCodex, type CodexRun } from '../support/codex';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import type { ExchangeRecord } from '../../companion/protocol/exchange';
import { countedByCompanion } from './capture-scenarios';

interface Run {
  codex: CodexRun;
  records: ExchangeRecord[];
  upstream: FakeUpstream;
  ws: FakeWs | null;
}

/** The real Codex CLI with its built-in provider (openai_base_url, dummy API key) through the companion. */
async function builtinRun(transport: 'websocket' | 'http'): Promise<Run> {
  const upstream = await startFakeUpstream({ scenario: scenarios.toolCall() });
  const ws =
    transport === 'websocket'
      ? acceptWebSockets(upstream, { scenario: scenarios.toolCall(), upgradeHeaders: { 'x-codex-turn-state': 'turn-state-1' } })
      : null;
  const c: TestCompanion = await startTestCompanion({ apiUpstream: upstream.baseUrl, websocket: transport === 'websocket' });
  const codex = await runCodex({ prompt: 'run echo hi', provider: 'builtin', baseUrl: `${c.url}/v1` });
  await c.idle();
  const ids = (await c.store.list({ limit: 100 })).items.reverse().map((s) => s.id);
  const records = (await Promise.all(ids.map((id) => c.store.get(id)))) as ExchangeRecord[];
  await c.dispose();
  return { codex, records, upstream, ws };
}

/**
 * Input items as the model sees them: without ids, statuses and Codex's metadata pass-through;
 * the run's temporary paths masked, and the command's own output (which differs from run to
 * run: timing, sandbox messages) reduced to its presence.
 */
function context(r: Run, record: ExchangeRecord): string[] {
  const input = (record.request.body as any).input as any[];
  return input.map((item) => {
    const masked =
      item.type === 'function_call_output' ? { ...item, output: typeof item.output === 'string' ? '<command output>' : item.output } : item;
    const text = JSON.stringify(masked, (k, v) =>
      ['id', 'status', 'internal_chat_message_metadata_passthrough'].includes(k) ? undefined : v,
    )
      .split(r.codex.root)
      .join('<root>');
    // Object key order differs between Codex's echo and the upstream's output item; compare canonically.
    const sort = (v: any): any =>
      Array.isArray(v)
        ? v.map(sort)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, sort(v[k])]),
            )
          : v;
    return JSON.stringify(sort(JSON.parse(text)));
  });
}

describe('the Responses WebSocket with the real Codex CLI (built-in provider)', () => {
  let ws: Run;
  let http: Run;
  beforeAll(async () => {
    [ws, http] = await Promise.all([builtinRun('websocket'), builtinRun('http')]);
  });
  afterAll(async () => {
    for (const r of [ws, http]) {
      r.codex.cleanup();
      await r.upstream.close();
    }
  });

  it('relays the whole tool-call turn over the WebSocket, and Codex finishes it', () => {
    expect(ws.codex.exitCode).toBe(0);
    expect(ws.codex.stdout).toContain('The command printed: hi');
    expect(ws.upstream.modelRequests()).toHaveLength(0);
    const creates = ws.ws!.clientMessages().filter((m) => m.type === 'response.create');
    expect(creates.map((m) => [m.generate ?? true, !!m.previous_response_id])).toEqual([
      [false, false],
      [true, true],
      [true, true],
    ]);
  });

  it('records the prewarm without counting it, and the token figure Codex printed', () => {
    const kinds = ws.records.map((r) => [r.transport, r.requestKind, r.codexCounted]);
    expect(kinds).toEqual([
      ['websocket', 'prewarm', false],
      ['websocket', 'turn', true],
      ['websocket', 'turn', true],
    ]);
    expect(ws.codex.tokensUsed).toBe(1956);
    expect(countedByCompanion(ws.records)).toBe(ws.codex.tokensUsed);
  });

  it('rebuilds the full context of each request: the same as the same scenario over HTTP', () => {
    const wsTurns = ws.records.filter((r) => r.requestKind === 'turn');
    const httpTurns = http.records.filter((r) => r.kind === 'model' && r.requestKind === 'turn');
    expect(http.records.every((r) => r.transport === 'http')).toBe(true);
    expect(httpTurns).toHaveLength(2);
    for (let i = 0; i < 2; i++) {
      expect(context(ws, wsTurns[i])).toEqual(context(http, httpTurns[i]));
      // The literal message carried only the new items after previous_response_id.
      expect((wsTurns[i].request.websocketMessage as any).input.length).toBeLessThan((wsTurns[i].request.body as any).input.length);
    }
    expect(http.codex.tokensUsed).toBe(ws.codex.tokensUsed);
  });

  it('keeps the identity of each message from its own metadata, not from the handshake', () => {
    const [prewarm, first] = ws.records;
    expect(prewarm.turnId).toBeNull();
    expect(first.turnId).toBeTruthy();
    expect(first.sessionId).toBe(prewarm.sessionId);
  });
});
