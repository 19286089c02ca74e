import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../companion/lib/log';
import { ImportedSpans, MAX_WAITING_IDS, type ImportedParts } from '../../../companion/pipeline/otlp/imported';
import type { SpanSpec } from '../../../companion/pipeline/otlp/spans';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { recordOf } from '../../support/records';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** Imported spans over records kept by id; `room` is what the span queue would take. */
async function imported(over: Partial<ImportedParts> = {}) {
  const base = await recordOf('a-plain-text-1.json');
  const records = new Map<string, ExchangeRecord>();
  const reads: string[] = [];
  const spans: SpanSpec[] = [];
  const make = (id: string, turnId: string, startedAt: number) =>
    records.set(id, { ...base, id, turnId, startedAt, endedAt: startedAt + 500, responseId: `resp_${id}` });
  const parts: ImportedParts = {
    record: async (id) => {
      reads.push(id);
      return records.get(id) ?? null;
    },
    emit: (s) => spans.push(s),
    room: () => 1000,
    content: false,
    log: createLogger('silent'),
    page: 2,
    ...over,
  };
  return { spans, reads, make, exporter: new ImportedSpans(parts) };
}

async function settled(reads: string[], n: number): Promise<void> {
  while (reads.length < n) await tick(5);
  await tick();
}

describe('imported exchanges as spans', () => {
  it('sends a chat span per imported exchange with its own times, marked imported', async () => {
    const { spans, reads, make, exporter } = await imported();
    make('a', 'turn-1', 1_600_000_000_000);
    exporter.add(['a'], true);
    await settled(reads, 1);
    const chat = spans.find((s) => s.name.startsWith('chat '))!;
    expect(chat).toMatchObject({ startMs: 1_600_000_000_000, endMs: 1_600_000_000_500 });
    expect(chat.attributes['codex.imported']).toBe(true);
  });

  it("ends the import's turns after its last page: one root span per turn, covering its exchanges", async () => {
    const { spans, reads, make, exporter } = await imported();
    make('a', 'turn-1', 1000);
    make('b', 'turn-1', 3000);
    make('c', 'turn-2', 5000);
    exporter.add(['a', 'b'], false);
    exporter.add(['c'], true);
    await settled(reads, 3);
    const roots = spans.filter((s) => s.name.startsWith('invoke_agent '));
    expect(roots.map((r) => [r.attributes['codex.turn.id'], r.startMs, r.endMs, r.attributes['codex.imported']])).toEqual([
      ['turn-1', 1000, 3500, true],
      ['turn-2', 5000, 5500, true],
    ]);
  });

  it('reads no record while the span queue has no room for a page, and goes on once it has', async () => {
    let room = 0;
    const { reads, make, exporter } = await imported({ room: () => room });
    make('a', 'turn-1', 1000);
    exporter.add(['a'], true);
    await tick(250);
    expect(reads).toEqual([]);
    room = 4;
    await settled(reads, 1);
    expect(reads).toEqual(['a']);
  });

  it('keeps a bounded number of ids waiting, dropping the oldest pages and counting them', async () => {
    const { reads, exporter } = await imported({ room: () => 0 });
    const page = Array.from({ length: 1000 }, (_, i) => `id-${i}`);
    // The first page is taken at once (to wait for room); past the bound, three more.
    const pages = 1 + MAX_WAITING_IDS / page.length + 3;
    for (let i = 0; i < pages; i++) exporter.add(page, false);
    expect(exporter.dropped).toBe(3 * page.length);
    expect(reads).toEqual([]);
    exporter.close();
  });
});
