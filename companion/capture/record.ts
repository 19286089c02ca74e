/**
 * @module Freezes a flow into the protocol's values: the summary the live feed and lists carry,
 * and the full record the store keeps.
 */
import { countedByCodex } from '../analysis/codex-count';
import type { ExchangeRecord, ExchangeSummary } from '../protocol/exchange';
import type { ExchangeFlow } from './flow';

const PREVIEW_CHARS = 160;

/** For responses without text: the tool calls they make, e.g. `exec_command {"cmd":"ls"}`. */
function callPreview(flow: ExchangeFlow): string | null {
  const calls = flow.assembler
    .output()
    .filter((i) => typeof i.name === 'string' && /_call$/.test(i.type))
    .map((i) => {
      const name = typeof i.namespace === 'string' ? `${i.namespace}.${String(i.name)}` : String(i.name);
      const args = typeof i.arguments === 'string' ? i.arguments : typeof i.input === 'string' ? i.input : '';
      return `${name} ${args.replace(/\s+/g, ' ')}`.trim();
    });
  return calls.length ? `→ ${calls.join('; ')}` : null;
}

export function summaryOfFlow(flow: ExchangeFlow): ExchangeSummary {
  const text = flow.assembler.text();
  const id = flow.identity;
  return {
    id: flow.id,
    kind: flow.kind,
    transport: flow.transport,
    status: flow.status,
    startedAt: flow.startedAt,
    firstByteAt: flow.firstByteAt,
    endedAt: flow.endedAt,
    method: flow.method,
    path: flow.path,
    httpStatus: flow.responseStatus,
    model: flow.assembler.model ?? id.model,
    requestKind: id.requestKind,
    sessionId: id.sessionId,
    threadId: id.threadId,
    parentThreadId: id.parentThreadId,
    turnId: id.turnId,
    agent: { role: id.role, name: id.agentName, nickname: id.agentNickname },
    usage: flow.assembler.usage,
    codexCounted: countedByCodex({
      kind: flow.kind,
      role: id.role,
      status: flow.status,
      requestKind: id.requestKind,
      compactionImplementation: id.compactionImplementation,
    }),
    error: flow.error,
    captureComplete: flow.captureComplete,
    route: flow.route,
    responseId: flow.assembler.responseId,
    preview: (text || callPreview(flow))?.slice(0, PREVIEW_CHARS) || null,
    requestBytes: flow.requestBytes,
    responseBytes: flow.responseStatus === null ? null : flow.responseBytes,
    cache: null,
    costUsd: null,
    facts: null,
    source: 'captured',
  };
}

export function recordOfFlow(flow: ExchangeFlow): ExchangeRecord {
  return {
    ...summaryOfFlow(flow),
    identity: flow.identity,
    request: {
      method: flow.method,
      path: flow.path,
      query: flow.query,
      upstreamUrl: flow.upstreamUrl,
      headers: flow.requestHeaders,
      bodyBytes: flow.requestBytes ?? 0,
      bodyEncoding: flow.requestEncoding,
      body: flow.requestBody,
      bodyNote: flow.requestBodyNote,
      ...(flow.websocketMessage !== undefined ? { websocketMessage: flow.websocketMessage } : {}),
    },
    response: {
      status: flow.responseStatus,
      headers: flow.responseHeaders,
      events: flow.events,
      output: flow.assembler.output(),
      ...(flow.responseBody !== undefined ? { body: flow.responseBody } : {}),
      bodyNote: flow.responseBodyNote,
    },
    rateLimits: flow.rateLimits,
    captureErrors: [...flow.captureErrors],
  };
}
