import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestCompanion, tempHome, type TestCompanion } from '../support/companion';

const FIXTURE = path.resolve('tests/fixtures/rollouts/subagent-v1/sessions/2026/12/01');
const [PARENT, CHILD] = fs.readdirSync(FIXTURE).sort();

let c: TestCompanion | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await c?.dispose();
  c = null;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('--watch-codex-home', () => {
  it('imports the responses Codex appends to its rollouts as they come, each once', async () => {
    const codexHome = tempHome('codex-home-');
    dirs.push(codexHome);
    const day = path.join(codexHome, 'sessions', '2026', '12', '01');
    fs.mkdirSync(day, { recursive: true });
    const lines = fs.readFileSync(path.join(FIXTURE, PARENT), 'utf8').split('\n');
    const firstUsage = lines.findIndex((l) => l.includes('"type":"token_usage_record"'));
    fs.writeFileSync(path.join(day, PARENT), lines.slice(0, firstUsage + 1).join('\n') + '\n');
    c = await startTestCompanion({ watchCodexHomes: [codexHome], watchIntervalMs: 50 });
    const counted = () => c!.store.usage({});
    await vi.waitFor(async () => expect((await counted()).exchanges).toBe(1), { timeout: 5000 });
    fs.appendFileSync(path.join(day, PARENT), lines.slice(firstUsage + 1).join('\n'));
    fs.copyFileSync(path.join(FIXTURE, CHILD), path.join(day, CHILD));
    await vi.waitFor(async () => expect((await counted()).exchanges).toBe(4), { timeout: 5000 });
    expect((await counted()).codexTokensUsed).toBe(2660);
    // Later scans (a touched file, the same content) add nothing.
    const now = new Date();
    fs.utimesSync(path.join(day, CHILD), now, now);
    await new Promise((r) => setTimeout(r, 300));
    await c.idle();
    expect((await counted()).exchanges).toBe(4);
    expect((await c.store.list({ limit: 1000 })).items.every((s) => s.source === 'rollout')).toBe(true);
  });
});
