import { describe, expect, it } from 'vitest';
import { spawnLinks } from '../../../companion/analysis/spawn-links';
import { loadFixture } from '../../support/records';

const call = (callId: unknown, args: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'function_call',
  name: 'spawn_agent',
  call_id: callId,
  arguments: args,
  ...extra,
});
const output = (callId: unknown, out: unknown) => ({ type: 'function_call_output', call_id: callId, output: out });

describe('spawnLinks', () => {
  it('reads a v1 spawn from real traffic: the child thread id and nickname from the output', () => {
    const links = spawnLinks(loadFixture('e-subagent-v1-2.json').request!.body);
    expect(links).toEqual([
      {
        callId: 'call_resp_001',
        namespace: 'multi_agent_v1',
        childThreadId: '01a228f7-7c17-7471-81fe-fec882c6fd35',
        childAgentName: null,
        nickname: 'Nietzsche',
        taskName: null,
        model: null,
        reasoningEffort: null,
        arguments: '{"message":"Say hi and stop."}',
      },
    ]);
  });

  it('reads a v2 spawn from real traffic: the child agent name from the output and the task from the arguments', () => {
    const links = spawnLinks(loadFixture('codemode-subagent-v2-2.json').request!.body);
    expect(links).toEqual([
      {
        callId: 'call_spawn',
        namespace: 'collaboration',
        childThreadId: null,
        childAgentName: '/root/greeter',
        nickname: null,
        taskName: 'greeter',
        model: null,
        reasoningEffort: null,
        arguments: '{"task_name":"greeter","message":"Say hi and stop."}',
      },
    ]);
  });

  it('keeps the call but no child when the output is not JSON, as in a forked child’s copy ("aborted")', () => {
    const links = spawnLinks(loadFixture('codemode-subagent-v2-3.json').request!.body);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ callId: 'call_spawn', childAgentName: null, childThreadId: null, taskName: 'greeter' });
  });

  it('reads the model and reasoning effort the parent asked for', () => {
    const body = {
      input: [call('c1', JSON.stringify({ task_name: 't', model: 'gpt-5.5', reasoning_effort: 'high' }), { namespace: 'agents' })],
    };
    expect(spawnLinks(body)[0]).toMatchObject({ namespace: 'agents', taskName: 't', model: 'gpt-5.5', reasoningEffort: 'high' });
  });

  it('takes a task name as the child agent name only when it is a path starting with /', () => {
    const body = { input: [call('c1', '{}'), output('c1', JSON.stringify({ task_name: 'greeter' }))] };
    expect(spawnLinks(body)[0].childAgentName).toBeNull();
  });

  it('pairs each call with its own output by call id, whatever the order', () => {
    const body = {
      input: [
        output('c2', JSON.stringify({ agent_id: 'thread-2' })),
        call('c1', '{}'),
        call('c2', '{}'),
        output('c1', JSON.stringify({ agent_id: 'thread-1' })),
      ],
    };
    expect(spawnLinks(body).map((l) => [l.callId, l.childThreadId])).toEqual([
      ['c1', 'thread-1'],
      ['c2', 'thread-2'],
    ]);
  });

  it('reads nothing from outputs that are not JSON objects', () => {
    // A list is not read as text either, even one whose only element is a JSON string.
    for (const out of ['[1,2]', '"text"', 'null', '42', { agent_id: 'x' }, ['{"agent_id":"x"}']]) {
      const body = { input: [call('c1', '{}'), output('c1', out)] };
      expect(spawnLinks(body)[0]).toMatchObject({ childThreadId: null, nickname: null, childAgentName: null });
    }
  });

  it('reads nothing from arguments that are not a JSON object string', () => {
    for (const args of ['[{"task_name":"a"}]', 'not json', { task_name: 'a' }]) {
      const link = spawnLinks({ input: [call('c1', args)] })[0];
      expect(link.taskName).toBeNull();
      expect(link.arguments).toBe(typeof args === 'string' ? args : '');
    }
  });

  it('clips long arguments to 400 characters on one line', () => {
    const args = JSON.stringify({ task_name: 't', message: 'x'.repeat(500) });
    const link = spawnLinks({ input: [call('c1', args)] })[0];
    expect(link.arguments).toBe(`${args.slice(0, 399)}…`);
    expect(link.taskName).toBe('t');
  });

  it('ignores other calls, calls without a call id, and outputs without one', () => {
    const body = {
      input: [
        { type: 'function_call', name: 'exec_command', call_id: 'c0', arguments: '{}' },
        { type: 'custom_tool_call', name: 'spawn_agent', call_id: 'c9', input: '{}' },
        call('', '{}'),
        call(undefined, '{}'),
        { type: 'function_call_output', call_id: '', output: JSON.stringify({ agent_id: 'wrong' }) },
        call('c1', '{}'),
        output('c1', JSON.stringify({ agent_id: 'right' })),
        'not an item',
        null,
      ],
    };
    expect(spawnLinks(body).map((l) => [l.callId, l.childThreadId])).toEqual([['c1', 'right']]);
  });

  it('finds nothing in a body without input', () => {
    expect(spawnLinks(null)).toEqual([]);
    expect(spawnLinks({ input: 'x' })).toEqual([]);
    expect(spawnLinks([call('c1', '{}')])).toEqual([]);
  });
});
