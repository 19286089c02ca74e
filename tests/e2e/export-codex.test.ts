/**
 * History out: real Codex runs (WebSocket and HTTP) through a companion, plus an imported
 * rollout, exported with `codex-devtools export` as HAR (validated against the HAR 1.2 schema)
 * and JSONL (read back by `import` with nothing lost). No exported file holds a credential.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import harSchemas from 'har-schema';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { acceptWebSockets } from '../support/fake-ws';
import { scenarios } from '../support/scenarios';
import { runCodex } from '../support/codex';
import { startTestCompanion, tempHome, type TestCompanion } from '../support/companion';
import { cli } from '../support/cli';
import { fakeKey } from '../support/keys';
import { freePort } from '../support/ports';

const API_KEY = fakeKey('proj-EXPORTSECRET-abcdefghijklmnopqrstuvwxyz0123');
const FIXTURES = path.resolve('tests/fixtures/rollouts');

/** The HAR 1.2 schema (har-schema, the schemas of the HAR spec) in a strict validator. */
function harValidator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addMetaSchema(draft06);
  ajv.addFormat('uri', (s: string) => URL.canParse(s));
  ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
  for (const [name, schema] of Object.entries(harSchemas)) if (name !== 'har') ajv.addSchema(schema);
  return ajv.compile(harSchemas.har);
}

describe('exporting real Codex traffic', () => {
  let upstream: FakeUpstream;
  let c: TestCompanion;
  const out = tempHome('codex-devtools-export-');
  const file = (name: string) => path.join(out, name);
  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: scenarios.toolCall() });
    acceptWebSockets(upstream, { scenario: scenarios.toolCall() });
    c = await startTestCompanion({ apiUpstream: upstream.baseUrl });
    const ws = await runCodex({ prompt: 'run echo hi', provider: 'builtin', baseUrl: `${c.url}/v1`, apiKey: API_KEY });
    const http = await runCodex({ prompt: 'run echo hi', baseUrl: `${c.url}/v1`, apiKey: API_KEY });
    ws.cleanup();
    http.cleanup();
    expect([ws.exitCode, http.exitCode]).toEqual([0, 0]);
    await c.idle();
    const imported = await cli(['import', '--codex-home', path.join(FIXTURES, 'legacy-fork'), '--home', c.home, '--port', String(c.port)]);
    expect(imported.stdout).toContain('Imported 3 exchanges');
  }, 180_000);
  afterAll(async () => {
    await c?.dispose();
    await upstream?.close();
    fs.rmSync(out, { recursive: true, force: true });
  }, 120_000);

  it('writes HAR 1.2 that validates against the schema, SSE as text/event-stream and WebSocket frames as Chrome reads them', async () => {
    const r = await cli(['export', '--format', 'har', '-o', file('all.har'), '--home', c.home, '--port', String(c.port)]);
    expect(r.code).toBe(0);
    const har = JSON.parse(fs.readFileSync(file('all.har'), 'utf8'));
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    const entries: any[] = har.log.entries;
    expect(entries).toHaveLength((await c.store.stats()).exchanges);
    const sockets = entries.filter((e) => e._resourceType === 'websocket');
    expect(sockets.length).toBeGreaterThanOrEqual(3);
    const turn = sockets.find((e) => e._webSocketMessages.some((m: any) => m.type === 'receive' && /response\.completed/.test(m.data)))!;
    expect(turn.request.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/responses$/);
    expect(turn.response.status).toBe(101);
    const [sent, ...received] = turn._webSocketMessages;
    expect(sent).toMatchObject({ type: 'send', opcode: 1 });
    expect(JSON.parse(sent.data).type).toBe('response.create');
    expect(received.every((m: any) => m.type === 'receive' && m.opcode === 1 && m.time >= sent.time)).toBe(true);
    const posts = entries.filter((e) => e._resourceType === 'fetch' && e.request.method === 'POST' && e.response.status === 200);
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const e of posts) {
      expect(e.response.content.mimeType).toBe('text/event-stream');
      expect(e.response.content.text).toMatch(/^event: response\.created\ndata: \{/);
      expect(e.response.content.text).toContain('event: response.completed\n');
      expect(JSON.parse(e.request.postData.text).model).toBe('gpt-5-codex');
      expect(e.timings.wait + e.timings.receive).toBe(e.time);
    }
    expect(entries.filter((e) => e._codexDevtools.source === 'rollout')).toHaveLength(3);
  }, 120_000);

  it('limits an export to one session', async () => {
    const session = (await c.store.list({ limit: 1 })).items[0].sessionId!;
    const r = await cli(['export', '--format', 'har', '--session', session, '--home', c.home, '--port', String(c.port)]);
    const entries: any[] = JSON.parse(r.stdout).log.entries;
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e._codexDevtools.sessionId === session)).toBe(true);
  }, 120_000);

  it('writes JSONL that imports into another state directory with nothing lost', async () => {
    const r = await cli(['export', '--format', 'jsonl', '-o', file('all.jsonl'), '--home', c.home, '--port', String(c.port)]);
    expect(r.code).toBe(0);
    const text = fs.readFileSync(file('all.jsonl'), 'utf8');
    expect(text.trim().split('\n')).toHaveLength((await c.store.stats()).exchanges);
    const other = path.join(out, 'other-home');
    const port = String(await freePort());
    const imported = await cli(['import', file('all.jsonl'), '--home', other, '--port', port]);
    expect(imported.stdout).toContain(`Imported ${(await c.store.stats()).exchanges} exchanges from 1 file`);
    const again = await cli(['export', '--format', 'jsonl', '-o', file('again.jsonl'), '--home', other, '--port', port]);
    expect(again.code).toBe(0);
    // The same records, field for field (key order aside).
    const records = (t: string) =>
      t
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    expect(records(fs.readFileSync(file('again.jsonl'), 'utf8'))).toEqual(records(text));
    const usage = JSON.parse((await cli(['usage', '--json', '--home', other, '--port', port])).stdout);
    expect(usage.total).toEqual(JSON.parse((await cli(['usage', '--json', '--home', c.home, '--port', String(c.port)])).stdout).total);
    // And once only: the same file again adds nothing.
    expect((await cli(['import', file('all.jsonl'), '--home', other, '--port', port])).stdout).toContain('Imported 0 exchanges');
  }, 120_000);

  it('holds no credential in any exported file', async () => {
    for (const name of ['all.har', 'all.jsonl']) {
      const text = fs.readFileSync(file(name), 'utf8');
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(API_KEY.slice(0, 20));
    }
    const har = JSON.parse(fs.readFileSync(file('all.har'), 'utf8'));
    const names = har.log.entries.flatMap((e: any) => [...e.request.headers, ...e.response.headers].map((h: any) => h.name.toLowerCase()));
    expect(names).toContain('x-codex-turn-metadata');
    expect(names).not.toContain('authorization');
  });
});
