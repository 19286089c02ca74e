import { describe, expect, it } from 'vitest';
import type { FromWorker } from '../../../companion/capture/messages';
import { liveAddon } from '../../../companion/pipeline/live';
import { replay } from '../../support/flows';
import { encodeSse, functionCall, reasoning, response } from '../../support/sse';

const THOUGHT = 'Reading the failing test first.';
const ARGS = JSON.stringify({ cmd: 'ls' });

async function run(chunks: 'whole' | 'per-event') {
  const posted: FromWorker[] = [];
  const events = response([reasoning(THOUGHT), functionCall('exec_command', ARGS)]);
  const bytes = Buffer.from(encodeSse(events));
  await replay(
    { headers: { 'content-type': 'application/json' }, body: { model: 'gpt-5-codex', input: [] } },
    { status: 200, headers: { 'content-type': 'text/event-stream' }, bytes },
    {
      addons: [liveAddon((m) => posted.push(m))],
      chunks: chunks === 'whole' ? undefined : () => events.map((e) => Buffer.from(encodeSse([e]))),
    },
  );
  return { posted, events };
}

describe('the live addon in the capture worker', () => {
  it('coalesces a burst of events into one progress message, sent before the exchange ends', async () => {
    for (const split of ['whole', 'per-event'] as const) {
      const { posted, events } = await run(split);
      const progress = posted.filter((m) => m.t === 'progress');
      expect(posted[0].t).toBe('started');
      expect(progress).toHaveLength(1);
      expect(progress[0]).toMatchObject({ events: events.length, chars: THOUGHT.length + ARGS.length });
    }
  });

  it('carries every item’s text in that message, the tool call with its name', async () => {
    const { posted } = await run('per-event');
    const progress = posted.find((m) => m.t === 'progress');
    expect(progress?.t === 'progress' && progress.items).toEqual([
      { index: 0, kind: 'reasoning', name: null, delta: THOUGHT },
      { index: 1, kind: 'function_call', name: 'exec_command', delta: ARGS },
    ]);
  });
});
