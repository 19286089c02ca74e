/** Access to the real Codex traffic in tests/fixtures (see its README). Test-only. */
import fs from 'node:fs';
import path from 'node:path';
import { encodeSse, type SseEvent } from './sse';

export const FIXTURE_DIR = path.resolve('tests/fixtures/codex-0.169');

export interface HttpFixture {
  scenario: string;
  transport: 'http';
  request: { method: string; url: string; headers: Record<string, string>; body: any };
  response_sent_by_fake_upstream: { status: number; headers: Record<string, string>; sse_events?: SseEvent[]; json?: unknown };
}

export function loadFixture<T = HttpFixture>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, `${name}.json`), 'utf8')) as T;
}

/** Names of the HTTP fixtures (one request each). */
export function httpFixtureNames(): string[] {
  return fs
    .readdirSync(FIXTURE_DIR)
    .filter((f) => f.endsWith('.json') && f !== 'tool-sets.json')
    .map((f) => f.slice(0, -5))
    .filter((n) => loadFixture<{ transport: string }>(n).transport === 'http');
}

/** The fixture's SSE exactly as the fake wrote it on the wire. */
export function fixtureSse(f: HttpFixture, framing: 'lf' | 'crlf' | 'cr' = 'lf'): Buffer {
  return Buffer.from(encodeSse(f.response_sent_by_fake_upstream.sse_events ?? [], framing));
}
