/**
 * The history `codex-devtools demo` ships: made reproducibly from the real-traffic fixtures by
 * scripts/make-demo.ts, readable by `import FILE.jsonl`, every kind of exchange the panel shows,
 * and no credential in it.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoPort } from '../../../companion/cli/demo';
import { parseJsonl } from '../../../companion/store/import/import';
import { credentialFindings } from '../../../scripts/demo/credentials';
import { DEMO_FILE, makeDemo } from '../../../scripts/demo/traffic';

const text = fs.readFileSync(DEMO_FILE, 'utf8');

describe('the bundled demo traffic', () => {
  it('is what scripts/make-demo.ts makes from the fixtures today', async () => {
    expect(await makeDemo()).toBe(text);
  });

  it('is JSONL in the record schema, without analysis (the import computes it)', () => {
    const parsed = parseJsonl(text);
    expect(parsed.malformed).toBe(0);
    expect(parsed.records).toHaveLength(parsed.lines);
    expect(parsed.records.every((r) => r.analysis === undefined && r.costUsd === null && r.cache === null)).toBe(true);
    expect(new Set(parsed.records.map((r) => r.responseId ?? r.id)).size).toBe(parsed.records.length);
  });

  it('holds HTTP and WebSocket, code mode, a sub-agent of each version, a compaction, rate-limit headers and a 429', () => {
    const { records } = parseJsonl(text);
    expect(new Set(records.map((r) => r.transport))).toEqual(new Set(['http', 'websocket']));
    const codeMode = records.filter((r) =>
      (r.request.body as { input?: { type?: string }[] }).input?.some((i) => i.type === 'additional_tools'),
    );
    expect(codeMode.length).toBeGreaterThan(0);
    const children = records.filter((r) => r.agent.role === 'subagent');
    expect(children.map((r) => r.agent.name).sort()).toEqual(['/root', '/root/greeter']);
    expect(children.every((r) => r.parentThreadId !== null && records.some((p) => p.threadId === r.parentThreadId))).toBe(true);
    expect(records.filter((r) => r.requestKind === 'compaction')).toHaveLength(1);
    expect(records.filter((r) => r.httpStatus === 429)).toHaveLength(1);
    expect(records.some((r) => r.rateLimits?.codex.some((l) => l.primary?.usedPercent === 12.5))).toBe(true);
  });

  it('holds no credential: no credential header, bearer token, OpenAI key, JWT or account id', () => {
    expect(credentialFindings(text)).toEqual([]);
    for (const r of parseJsonl(text).records) {
      expect(Object.keys(r.request.headers).filter((h) => /authorization|cookie|api-key|account-id/i.test(h))).toEqual([]);
      expect(Object.keys(r.response.headers).filter((h) => /cookie|authorization/i.test(h))).toEqual([]);
    }
    const shipped = path.resolve('dist/companion/demo-traffic.jsonl');
    if (fs.existsSync(shipped)) expect(credentialFindings(fs.readFileSync(shipped, 'utf8'))).toEqual([]);
  });

  it.each([
    ['"authorization": "x"', 'a credential header'],
    ['{"Cookie":"a=b"}', 'a credential header'],
    ['Bearer abc.def', 'a bearer token'],
    ['key sk-proj-abcdef', 'an OpenAI key'],
    ['eyJhbGciOiJIUzI1.eyJzdWIiOiIx.sig', 'a JWT'],
    ['acct_fake123', 'a ChatGPT account id'],
  ])('the credential scan finds %s', (sample, what) => {
    expect(credentialFindings(sample)).toEqual([expect.stringContaining(what)]);
  });
});

describe('the demo port', () => {
  it('is --port as given, the preferred port when free, else a free one with a note saying why', async () => {
    expect(await demoPort('9123')).toEqual({ port: 9123, note: null });
    const server = http.createServer((_req, res) => res.writeHead(404).end('not a companion'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const taken = (server.address() as { port: number }).port;
    try {
      expect(await demoPort(undefined, taken)).toEqual({
        port: 0,
        note: expect.stringMatching(new RegExp(`^Port ${taken} is taken by another program`)),
      });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(await demoPort(undefined, taken)).toEqual({ port: taken, note: null });
  });
});
