import { describe, expect, it } from 'vitest';
import { extractIdentity, type HeaderGet } from '../../../companion/capture/identity';
import type { Identity } from '../../../companion/protocol/identity';
import { loadFixture } from '../../support/fixtures';

/** A header lookup over a plain record (names already lower-case, as the proxy hands them over). */
const headers =
  (h: Record<string, string>): HeaderGet =>
  (name) =>
    h[name] ?? null;

const none = headers({});

/** The identity of a request that carries nothing Codex-specific. */
const EMPTY: Identity = {
  sessionId: null,
  threadId: null,
  parentThreadId: null,
  turnId: null,
  rootTurnId: null,
  parentTurnId: null,
  agentName: null,
  agentNickname: null,
  role: 'main',
  threadSource: null,
  subagentHeader: null,
  subagentKind: null,
  requestKind: 'unknown',
  compactionImplementation: null,
  windowNumber: null,
  windowId: null,
  originator: null,
  clientVersion: null,
  promptCacheKey: null,
  model: null,
  reasoningEffort: null,
};

const meta = (m: Record<string, unknown>) => JSON.stringify(m);

describe('request identity from a captured Codex 0.169 request', () => {
  it('reads a main-agent turn from its headers and body', () => {
    const f = loadFixture('d-ratelimit-headers-ok-1');
    const id = extractIdentity(headers(f.request.headers), f.request.body, true);
    expect(id).toEqual({
      ...EMPTY,
      sessionId: '01a228f4-e6a0-7021-a287-bc1a2e198843',
      threadId: '01a228f4-e6a0-7021-a287-bc1a2e198843',
      turnId: '01a228f4-e6ba-7a43-84f9-90c1c9369700',
      rootTurnId: '01a228f4-e6ba-7a43-84f9-90c1c9369700',
      agentName: '/root',
      role: 'main',
      threadSource: 'user',
      requestKind: 'turn',
      windowNumber: 0,
      windowId: '01a228f4-e6a0-7021-a287-bc1a2e198843:0',
      originator: 'codex_exec',
      clientVersion: '0.169.0',
      promptCacheKey: '01a228f4-e6a0-7021-a287-bc1a2e198843',
      model: 'gpt-5-codex',
    });
  });

  it('reads a spawned sub-agent, its parent thread and turn, and the sub-agent header', () => {
    const f = loadFixture('e-subagent-v1-3');
    const id = extractIdentity(headers(f.request.headers), f.request.body, true);
    expect(id).toMatchObject({
      sessionId: '01a228f7-7b6e-7f02-a6ea-e7e98155fd57',
      threadId: '01a228f7-7c17-7471-81fe-fec882c6fd35',
      parentThreadId: '01a228f7-7b6e-7f02-a6ea-e7e98155fd57',
      turnId: '01a228f7-7c23-7b91-b4a5-e0d04fc17b96',
      rootTurnId: '01a228f7-7b88-7a83-b4ba-1120eb7b8902',
      parentTurnId: '01a228f7-7b88-7a83-b4ba-1120eb7b8902',
      role: 'subagent',
      threadSource: 'subagent',
      subagentHeader: 'collab_spawn',
      subagentKind: 'thread_spawn',
      requestKind: 'turn',
    });
  });

  it('reads a local compaction request and its implementation', () => {
    const f = loadFixture('e-compaction-local-2');
    const id = extractIdentity(headers(f.request.headers), f.request.body, true);
    expect(id.requestKind).toBe('compaction');
    expect(id.compactionImplementation).toBe('responses');
    expect(id.role).toBe('main');
  });

  it('reads the prewarm WebSocket handshake: its empty turn id stays unknown', () => {
    const f = loadFixture<{ upgrade_request: { headers: Record<string, string> } }>('g-ws-text-1');
    const id = extractIdentity(headers(f.upgrade_request.headers), undefined, true);
    expect(id.requestKind).toBe('prewarm');
    expect(id.turnId).toBeNull();
    expect(id.clientVersion).toBe('0.169.0');
    expect(id.windowId).toBe('01a22900-3c82-7181-97d4-0378bacecc79:0');
  });
});

describe('request identity, where each field comes from', () => {
  it('knows nothing of a request without headers or body', () => {
    expect(extractIdentity(none, undefined, true)).toEqual(EMPTY);
    expect(extractIdentity(none, undefined, false)).toEqual(EMPTY);
  });

  it('prefers the session and thread headers over the metadata and the metadata over client_metadata', () => {
    const body = { client_metadata: { session_id: 'cm-s', thread_id: 'cm-t' } };
    const h = { 'x-codex-turn-metadata': meta({ session_id: 'meta-s', thread_id: 'meta-t' }) };
    expect(extractIdentity(headers({ ...h, 'session-id': 'h-s', 'thread-id': 'h-t' }), body, true)).toMatchObject({
      sessionId: 'h-s',
      threadId: 'h-t',
    });
    expect(extractIdentity(headers(h), body, true)).toMatchObject({ sessionId: 'meta-s', threadId: 'meta-t' });
    expect(extractIdentity(none, body, true)).toMatchObject({ sessionId: 'cm-s', threadId: 'cm-t' });
  });

  it('takes turn ids from the metadata first, else from client_metadata', () => {
    const body = { client_metadata: { turn_id: 'cm-turn', root_turn_id: 'cm-root', parent_turn_id: 'cm-parent' } };
    const h = headers({ 'x-codex-turn-metadata': meta({ turn_id: 'm-turn', root_turn_id: 'm-root', parent_turn_id: 'm-parent' }) });
    expect(extractIdentity(h, body, true)).toMatchObject({ turnId: 'm-turn', rootTurnId: 'm-root', parentTurnId: 'm-parent' });
    expect(extractIdentity(none, body, true)).toMatchObject({ turnId: 'cm-turn', rootTurnId: 'cm-root', parentTurnId: 'cm-parent' });
  });

  it('finds the metadata JSON in client_metadata when the header is missing', () => {
    const body = { client_metadata: { 'x-codex-turn-metadata': meta({ agent_name: '/root/task', subagent_kind: 'thread_spawn' }) } };
    expect(extractIdentity(none, body, true)).toMatchObject({ agentName: '/root/task', subagentKind: 'thread_spawn', requestKind: 'turn' });
  });

  it('over HTTP takes the header metadata first; per WebSocket message the message own metadata first', () => {
    const h = headers({ 'x-codex-turn-metadata': meta({ turn_id: 'handshake', request_kind: 'prewarm' }) });
    const body = { client_metadata: { 'x-codex-turn-metadata': meta({ turn_id: 'message', request_kind: 'turn' }) } };
    expect(extractIdentity(h, body, true)).toMatchObject({ turnId: 'handshake', requestKind: 'prewarm' });
    expect(extractIdentity(h, body, true, true)).toMatchObject({ turnId: 'message', requestKind: 'turn' });
    // A message without metadata of its own falls back to the handshake's.
    expect(extractIdentity(h, {}, true, true)).toMatchObject({ turnId: 'handshake', requestKind: 'prewarm' });
  });

  it('ignores a malformed or non-object metadata value and reads the other source', () => {
    const body = { client_metadata: { 'x-codex-turn-metadata': meta({ turn_id: 'from-body' }) } };
    for (const bad of ['{not json', '[1,2]', '"text"', '42', 'null']) {
      expect(extractIdentity(headers({ 'x-codex-turn-metadata': bad }), body, true).turnId, bad).toBe('from-body');
      expect(extractIdentity(headers({ 'x-codex-turn-metadata': bad }), undefined, true).requestKind, bad).toBe('unknown');
    }
  });

  it('takes the parent thread from the header, then the metadata, then client_metadata', () => {
    const body = { client_metadata: { 'x-codex-parent-thread-id': 'cm-p' } };
    const h = { 'x-codex-turn-metadata': meta({ parent_thread_id: 'meta-p' }) };
    expect(extractIdentity(headers({ ...h, 'x-codex-parent-thread-id': 'h-p' }), body, true).parentThreadId).toBe('h-p');
    expect(extractIdentity(headers(h), body, true).parentThreadId).toBe('meta-p');
    expect(extractIdentity(none, body, true).parentThreadId).toBe('cm-p');
  });

  it('takes the sub-agent header from the request, else from client_metadata', () => {
    const body = { client_metadata: { 'x-openai-subagent': 'review' } };
    expect(extractIdentity(headers({ 'x-openai-subagent': 'guardian' }), body, true).subagentHeader).toBe('guardian');
    expect(extractIdentity(none, body, true).subagentHeader).toBe('review');
  });

  it('calls a request a sub-agent on any one sign of it, and main otherwise', () => {
    expect(extractIdentity(headers({ 'x-codex-turn-metadata': meta({ thread_source: 'subagent' }) }), undefined, true).role).toBe(
      'subagent',
    );
    expect(extractIdentity(headers({ 'x-codex-turn-metadata': meta({ thread_source: 'user' }) }), undefined, true).role).toBe('main');
    expect(extractIdentity(headers({ 'x-codex-parent-thread-id': 'p' }), undefined, true).role).toBe('subagent');
    expect(extractIdentity(headers({ 'x-openai-subagent': 'review' }), undefined, true).role).toBe('subagent');
    expect(extractIdentity(headers({ 'x-openai-subagent': '' }), undefined, true).role).toBe('main');
  });

  it('takes the request kind the metadata names, whatever the transport', () => {
    for (const kind of ['turn', 'prewarm', 'compaction'] as const) {
      expect(extractIdentity(headers({ 'x-codex-turn-metadata': meta({ request_kind: kind }) }), undefined, false).requestKind).toBe(kind);
    }
  });

  it('calls a generate:false request a prewarm when the metadata does not name its kind', () => {
    expect(extractIdentity(none, { generate: false }, false).requestKind).toBe('prewarm');
    expect(extractIdentity(none, { generate: true }, false).requestKind).toBe('unknown');
    expect(extractIdentity(none, { generate: 0 }, false).requestKind).toBe('unknown');
  });

  it('calls a model request with metadata of an unknown kind a turn, and anything else unknown', () => {
    const h = headers({ 'x-codex-turn-metadata': meta({ request_kind: 'something_new' }) });
    expect(extractIdentity(h, undefined, true).requestKind).toBe('turn');
    expect(extractIdentity(h, undefined, false).requestKind).toBe('unknown');
    expect(extractIdentity(none, { model: 'm' }, true).requestKind).toBe('unknown');
  });

  it('reads the compaction implementation only from a compaction object', () => {
    const h = (c: unknown) => headers({ 'x-codex-turn-metadata': meta({ compaction: c }) });
    expect(extractIdentity(h({ implementation: 'responses_compaction_v2' }), undefined, true).compactionImplementation).toBe(
      'responses_compaction_v2',
    );
    expect(extractIdentity(h('responses'), undefined, true).compactionImplementation).toBeNull();
  });

  it('reads the window number as a number or a string of digits only', () => {
    const w = (v: unknown) =>
      extractIdentity(headers({ 'x-codex-turn-metadata': meta({ window_number: v }) }), undefined, true).windowNumber;
    expect(w(0)).toBe(0);
    expect(w(3)).toBe(3);
    expect(w(2.5)).toBe(2.5);
    expect(w('12')).toBe(12);
    expect(w('7')).toBe(7);
    expect(w('')).toBeNull();
    expect(w('1a')).toBeNull();
    expect(w('a1')).toBeNull();
    expect(w('-1')).toBeNull();
    expect(w(true)).toBeNull();
    // A list would pass for its digits if it were read as text.
    expect(w([7])).toBeNull();
    expect(w(['12'])).toBeNull();
    expect(w(null)).toBeNull();
    // JSON's 1e999 parses to Infinity, which is no window number.
    expect(extractIdentity(headers({ 'x-codex-turn-metadata': '{"window_number":1e999}' }), undefined, true).windowNumber).toBeNull();
  });

  it('over HTTP takes the window id from the header, then the metadata, then client_metadata', () => {
    const body = { client_metadata: { 'x-codex-window-id': 'cm-w' } };
    const h = { 'x-codex-turn-metadata': meta({ window_id: 'meta-w' }) };
    expect(extractIdentity(headers({ ...h, 'x-codex-window-id': 'h-w' }), body, true).windowId).toBe('h-w');
    expect(extractIdentity(headers(h), body, true).windowId).toBe('meta-w');
    expect(extractIdentity(none, body, true).windowId).toBe('cm-w');
  });

  it('per WebSocket message takes the window id from the message, then its metadata, never the handshake header', () => {
    const h = { 'x-codex-window-id': 'h-w' };
    const body = (cm: Record<string, string>) => ({ client_metadata: cm });
    expect(
      extractIdentity(headers(h), body({ 'x-codex-window-id': 'cm-w', 'x-codex-turn-metadata': meta({ window_id: 'm-w' }) }), true, true)
        .windowId,
    ).toBe('cm-w');
    expect(extractIdentity(headers(h), body({ 'x-codex-turn-metadata': meta({ window_id: 'm-w' }) }), true, true).windowId).toBe('m-w');
    expect(extractIdentity(headers(h), body({}), true, true).windowId).toBeNull();
  });

  it('takes the client version from the version header, else from the user agent', () => {
    const ua = 'codex_exec/0.169.0 (Debian 12.0.0; x86_64) xterm (codex_exec; 0.169.0)';
    expect(extractIdentity(headers({ version: '0.170.1', 'user-agent': ua }), undefined, true).clientVersion).toBe('0.170.1');
    expect(extractIdentity(headers({ 'user-agent': ua }), undefined, true).clientVersion).toBe('0.169.0');
    expect(extractIdentity(headers({ 'user-agent': 'codex_cli_rs/1.2.3-alpha.4+x (Mac OS)' }), undefined, true).clientVersion).toBe(
      '1.2.3-alpha.4',
    );
    expect(extractIdentity(headers({ 'user-agent': 'codex_vscode/10.20.30' }), undefined, true).clientVersion).toBe('10.20.30');
  });

  it('finds no client version in a user agent that does not start with product/x.y.z', () => {
    const v = (ua: string) => extractIdentity(headers({ 'user-agent': ua }), undefined, true).clientVersion;
    expect(v('Mozilla (compatible) codex_exec/0.169.0')).toBeNull();
    expect(v('codex_exec/0.169')).toBeNull();
    expect(v('codex_exec 0.169.0')).toBeNull();
    expect(v('/0.169.0')).toBeNull();
    expect(v('codex_exec/v0.169.0')).toBeNull();
    expect(v('codex exec/0.169.0')).toBeNull();
    expect(v('a.b-c/1.2.3')).toBe('1.2.3');
  });

  it('takes model, effort and cache key from the body first, then the metadata', () => {
    const h = headers({ 'x-codex-turn-metadata': meta({ model: 'meta-model', reasoning_effort: 'low' }) });
    const body = { model: 'body-model', reasoning: { effort: 'high', summary: 'auto' }, prompt_cache_key: 'pck' };
    expect(extractIdentity(h, body, true)).toMatchObject({ model: 'body-model', reasoningEffort: 'high', promptCacheKey: 'pck' });
    expect(extractIdentity(h, { reasoning: 'high' }, true)).toMatchObject({
      model: 'meta-model',
      reasoningEffort: 'low',
      promptCacheKey: null,
    });
  });

  it('reads the originator header and never an agent nickname', () => {
    const id = extractIdentity(headers({ originator: 'codex_cli_rs' }), undefined, true);
    expect(id.originator).toBe('codex_cli_rs');
    expect(id.agentNickname).toBeNull();
  });

  it('ignores a body or client_metadata that is not an object', () => {
    expect(extractIdentity(none, ['model'], true)).toEqual(EMPTY);
    expect(extractIdentity(none, { client_metadata: ['session_id'] }, true)).toEqual(EMPTY);
    expect(extractIdentity(none, 'text', true)).toEqual(EMPTY);
  });
});
