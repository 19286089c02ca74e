/**
 * @module HAR 1.2 export, for Chrome and Firefox DevTools and HTTP tools. An HTTP exchange is an
 * entry whose response content is the SSE stream as `text/event-stream`; a WebSocket exchange is
 * an entry whose frames are in `_webSocketMessages` (`type`, `time` in epoch seconds, `opcode`,
 * `data`), the extension Chrome's own HAR writer and importer use
 * (devtools-frontend front_end/models/har/). Timings come from the capture; imported exchanges,
 * which have none, get zero waits. Credential headers are left out.
 */
import { COMPANION_VERSION } from '../../version';
import type { ExchangeRecord, StreamEvent } from '../../protocol/exchange';
import { headerList } from './credentials';

/** The SSE text the upstream sent, rebuilt from the recorded events. */
export function sseText(events: readonly StreamEvent[]): string {
  return events.map((e) => `event: ${e.type}\ndata: ${e.invalid !== undefined ? e.invalid : JSON.stringify(e.data)}\n\n`).join('');
}

function urlOf(r: ExchangeRecord, ws: boolean): string {
  const base = r.request.upstreamUrl || `http://127.0.0.1${r.request.path || '/'}`;
  const url = base.includes('?') || !r.request.query ? base : `${base}?${r.request.query.replace(/^\?/, '')}`;
  return ws ? url.replace(/^http/, 'ws') : url;
}

function queryString(url: string): { name: string; value: string }[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

const nonNegative = (v: number) => (Number.isFinite(v) && v > 0 ? v : 0);

function entryOf(r: ExchangeRecord) {
  const ws = r.transport === 'websocket';
  const url = urlOf(r, ws);
  const wait = r.firstByteAt !== null ? nonNegative(r.firstByteAt - r.startedAt) : 0;
  const receive = r.endedAt !== null ? nonNegative(r.endedAt - (r.firstByteAt ?? r.startedAt)) : 0;
  const bodyText = r.request.body === undefined || r.request.body === null ? null : JSON.stringify(r.request.body);
  const sse = r.response.events.length > 0 && !ws;
  const responseText = sse ? sseText(r.response.events) : r.response.body !== undefined ? JSON.stringify(r.response.body) : '';
  const entry: Record<string, unknown> = {
    startedDateTime: new Date(r.startedAt).toISOString(),
    time: wait + receive,
    request: {
      method: ws ? 'GET' : r.request.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(r.request.headers),
      queryString: queryString(url),
      ...(!ws && bodyText !== null ? { postData: { mimeType: 'application/json', text: bodyText } } : {}),
      headersSize: -1,
      bodySize: ws ? 0 : r.request.bodyBytes,
    },
    response: {
      status: ws && r.httpStatus === null ? 101 : (r.httpStatus ?? 0),
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(r.response.headers),
      content: {
        size: Buffer.byteLength(responseText),
        mimeType: sse ? 'text/event-stream' : 'application/json',
        ...(responseText ? { text: responseText } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: r.responseBytes ?? -1,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait, receive },
    comment: r.source === 'rollout' ? 'read from a Codex rollout: no headers, no stream events' : undefined,
    _resourceType: ws ? 'websocket' : 'fetch',
    _codexDevtools: { id: r.id, sessionId: r.sessionId, threadId: r.threadId, requestKind: r.requestKind, source: r.source },
  };
  if (entry.comment === undefined) delete entry.comment;
  if (ws) {
    const sent = r.request.websocketMessage ?? r.request.body;
    entry._webSocketMessages = [
      ...(sent !== undefined && sent !== null ? [{ type: 'send', time: r.startedAt / 1000, opcode: 1, data: JSON.stringify(sent) }] : []),
      ...r.response.events.map((e) => ({
        type: 'receive',
        time: (r.startedAt + e.t) / 1000,
        opcode: 1,
        data: e.invalid !== undefined ? e.invalid : JSON.stringify(e.data),
      })),
    ];
  }
  return entry;
}

export function toHar(records: readonly ExchangeRecord[]): string {
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'codex-devtools', version: COMPANION_VERSION },
      pages: [],
      entries: records.map(entryOf),
    },
  };
  return JSON.stringify(har, null, 2) + '\n';
}
