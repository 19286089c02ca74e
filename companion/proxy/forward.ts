/**
 * @module HTTP forwarding under `/v1`, Node stream to Node stream: the request goes upstream at
 * once and its body streams up as it arrives; the upstream's response is written to Codex's
 * socket chunk by chunk, with its headers as they came (minus hop-by-hop ones and those Node
 * writes itself). Capture is a copy on the side (capture/channel.ts): nothing here waits for it,
 * and nothing it does can fail the forward. A profile's model override is the one case that
 * buffers the request body, since it rewrites it.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { CaptureChannel, HttpCapture } from '../capture/channel';
import type { ExchangeError } from '../protocol/exchange';
import { describeError, type Logger } from '../lib/log';
import { maskUrlsInText } from '../lib/url-secrets';
import { decodeBody, parseEncoding } from '../http/decode';
import { openAiErrorBody } from './errors';
import { rawHeaderPairs, withoutHopByHop, type HeaderPairs } from '../http/headers';
import type { RouteOk, Router } from './route';
import { UpstreamTimeout, type UpstreamClient } from './upstream-client';

export interface ForwardDeps {
  router: Router;
  upstream: UpstreamClient;
  channel: CaptureChannel;
  log: Logger;
  /** While paused, requests are forwarded but not recorded. */
  capturing(): boolean;
  /** Streams cut by shutdown say so in their record. */
  shuttingDown(): boolean;
}

/** Node's own request and response behind Hono's context (@hono/node-server). */
interface NodeBindings {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
/** Written by Node itself for the connection to Codex; the upstream's values do not apply to it. */
const NODE_OWNED = ['date'];

/** Path after the `/v1` prefix, e.g. `/v1/responses` → `/responses`. */
export function proxySuffix(pathname: string): string {
  return pathname.replace(/^\/v1(?=\/|$)/, '') || '/';
}

function flatHeaders(pairs: HeaderPairs): string[] {
  return pairs.flatMap(([k, v]) => [k, v]);
}

/**
 * Headers for Node's client, order and repeats kept (a repeated name becomes an array, which
 * Node writes as one line per value). Not the flat array form: with it Node adds no `Host`.
 */
function requestHeaders(pairs: HeaderPairs): OutgoingHttpHeaders {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of pairs) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

/** Applies a profile's model override; the body then no longer matches what Codex sent, by the user's choice. */
function overrideModel(raw: Uint8Array, encodingHeader: string | null, model: string): { body: Uint8Array; dropEncoding: boolean } | null {
  const enc = parseEncoding(encodingHeader);
  if (!enc) return null;
  try {
    const json = JSON.parse(Buffer.from(decodeBody(raw, enc)).toString('utf8')) as Record<string, unknown>;
    json.model = model;
    return { body: Buffer.from(JSON.stringify(json)), dropEncoding: enc !== 'identity' };
  } catch {
    return null; // not JSON: forwarded unchanged
  }
}

/** Errors of a connection the upstream accepted and then closed or reset before its answer began. */
const CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE']);

function upstreamFailure(err: unknown, upstream: string): { status: number; type: string; message: string } {
  const timeout = err instanceof UpstreamTimeout;
  const code = (err as { code?: unknown } | null)?.code;
  // Reached, then dropped: a crashed or overloaded upstream, not a wrong address.
  const closed = !timeout && typeof code === 'string' && CLOSED_CODES.has(code);
  const type = timeout ? 'upstream_timeout' : closed ? 'upstream_closed' : 'upstream_unreachable';
  const what = timeout ? 'timed out waiting for the upstream' : closed ? 'was cut off by the upstream' : 'could not reach the upstream';
  const after = closed ? ', which closed the connection before answering' : '';
  return {
    status: timeout ? 504 : 502,
    type,
    // `upstream` is already masked; the client's own error text may quote the wire URL.
    message: `codex-devtools (the local companion proxy) ${what} ${upstream}${after}: ${maskUrlsInText(describeError(err))}`,
  };
}

function hasBody(incoming: IncomingMessage): boolean {
  const len = incoming.headers['content-length'];
  return incoming.headers['transfer-encoding'] !== undefined || (len !== undefined && Number(len) > 0);
}

/** The whole request body (the model override and refused routes need it whole). */
async function readAll(incoming: IncomingMessage, capture: HttpCapture | null): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    parts.push(chunk);
    capture?.requestChunk(chunk);
  }
  capture?.requestEnd();
  return Buffer.concat(parts);
}

function writeError(out: ServerResponse, status: number, type: string, message: string, code: string): void {
  if (out.headersSent) return void out.destroy();
  out.writeHead(status, { 'content-type': 'application/json', 'x-codex-devtools-error': type });
  out.end(openAiErrorBody(type, message, code));
}

export function createForwardHandler(deps: ForwardDeps) {
  return async function forward(c: Context): Promise<Response> {
    const { incoming, outgoing } = c.env as NodeBindings;
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const suffix = proxySuffix(url.pathname);
    const inHeaders = rawHeaderPairs(incoming.rawHeaders);
    const decision = deps.router.resolve({ headers: inHeaders, suffix, query: url.search });
    const capture = deps.capturing()
      ? deps.channel.open({
          transport: 'http',
          method: incoming.method ?? 'GET',
          path: url.pathname,
          query: url.search,
          upstreamUrl: decision.ok ? decision.url : null,
          requestHeaders: inHeaders,
          route: decision.route,
        })
      : null;

    if (!decision.ok) {
      // Nothing is forwarded, so nothing waits: recorded right away.
      try {
        await readAll(incoming, capture);
      } catch {
        capture?.requestEnd();
      }
      const body = Buffer.from(openAiErrorBody(decision.type, decision.message, 'codex_devtools_profile'));
      const headers: HeaderPairs = [
        ['content-type', 'application/json'],
        ['x-codex-devtools-error', decision.type],
      ];
      outgoing.writeHead(decision.status, flatHeaders(headers));
      outgoing.end(body);
      capture?.head(decision.status, headers, Date.now());
      capture?.chunk(body);
      capture?.end();
      return RESPONSE_ALREADY_SENT;
    }
    await send(deps, incoming, outgoing, decision, capture);
    return RESPONSE_ALREADY_SENT;
  };
}

/** Why a response was cut before its end, by whom. */
function cutShort(deps: ForwardDeps): ExchangeError {
  return deps.shuttingDown()
    ? {
        code: 'shutdown',
        message: 'the companion shut down before the response ended; the upstream request was cancelled',
        upstreamCode: null,
      }
    : {
        code: 'client_aborted',
        message: 'Codex closed the connection before the response ended; the upstream request was cancelled',
        upstreamCode: null,
      };
}

const CODEX_LEFT_EARLY: ExchangeError = {
  code: 'client_aborted',
  message: 'Codex closed the connection before the upstream answered',
  upstreamCode: null,
};

const sendingAborted = (why: string): ExchangeError => ({
  code: 'client_aborted',
  message: `Codex closed the connection while sending the request (${why})`,
  upstreamCode: null,
});

async function send(deps: ForwardDeps, incoming: IncomingMessage, out: ServerResponse, decision: RouteOk, capture: HttpCapture | null) {
  const method = incoming.method ?? 'GET';
  let drop = ['host'];
  let whole: Buffer | null = null;
  const streamed = hasBody(incoming) && !decision.modelOverride;
  if (!hasBody(incoming)) {
    capture?.requestEnd();
  } else if (decision.modelOverride) {
    try {
      whole = await readAll(incoming, capture);
    } catch (err) {
      capture?.fail('aborted', sendingAborted(describeError(err)));
      return void out.destroy();
    }
    const o = overrideModel(whole, incoming.headers['content-encoding'] ?? null, decision.modelOverride);
    if (o) {
      whole = Buffer.from(o.body);
      drop = [...drop, 'content-length', ...(o.dropEncoding ? ['content-encoding'] : [])];
    }
  }

  // One outcome per exchange: the first of answered, failed or cut wins.
  let settled = false;
  const settle = (how: () => void) => {
    if (settled) return;
    settled = true;
    how();
  };
  const up = deps.upstream.request(decision.url, { method, headers: requestHeaders(withoutHopByHop(decision.headers, drop)) });
  // The first error of the upstream request, which names why a response broke off.
  let upError: unknown = null;
  up.on('error', (err) => (upError ??= err));
  let answered = false;
  let sendFailed: string | null = null;

  // Codex went away (before or during the response): the upstream request is cancelled.
  out.on('close', () => {
    if (out.writableFinished || settled) return;
    up.destroy();
    settle(() => capture?.fail('aborted', answered ? cutShort(deps) : CODEX_LEFT_EARLY));
  });

  if (streamed) {
    // The body goes up as it arrives, a copy to capture on the way; a slow upstream slows Codex's upload.
    incoming.on('data', (chunk: Buffer) => {
      capture?.requestChunk(chunk);
      if (!up.write(chunk)) incoming.pause();
    });
    up.on('drain', () => incoming.resume());
    incoming.on('end', () => {
      capture?.requestEnd();
      up.end();
    });
    incoming.on('error', (err) => (sendFailed = describeError(err)));
    incoming.on('close', () => {
      if (incoming.complete) return;
      sendFailed ??= 'aborted';
      up.destroy();
      out.destroy();
      settle(() => capture?.fail('aborted', sendingAborted(sendFailed!)));
    });
  } else {
    up.end(whole ?? undefined);
  }

  up.on('error', (err) => {
    if (answered || settled) return; // a response already begun reports its break on the response
    const f = upstreamFailure(err, decision.route.upstream);
    deps.log.warn(f.message);
    settle(() => capture?.fail('upstream_error', { code: f.type, message: f.message, upstreamCode: null }));
    writeError(out, f.status, f.type, f.message, 'codex_devtools_upstream');
  });

  up.on('response', (res) => {
    answered = true;
    const status = res.statusCode ?? 502;
    const pairs = rawHeaderPairs(res.rawHeaders);
    capture?.head(status, pairs, Date.now());
    out.writeHead(status, flatHeaders(withoutHopByHop(pairs, NODE_OWNED)));
    if (NULL_BODY_STATUS.has(status) || method === 'HEAD') {
      res.resume();
      out.end();
      settle(() => capture?.end());
      return;
    }
    // Headers go out now, before the first body byte (an SSE stream may wait long for it).
    out.flushHeaders();
    res.on('data', (chunk: Buffer) => {
      // Backpressure: a slow Codex slows the upstream read instead of filling our memory.
      if (!out.write(chunk)) res.pause();
      capture?.chunk(chunk);
    });
    out.on('drain', () => res.resume());
    res.on('end', () => {
      out.end();
      settle(() => capture?.end());
    });
    res.on('error', () => {}); // its cause is read from the request below; 'close' reports the break
    res.on('close', () => {
      if (res.complete) return;
      out.destroy();
      settle(() =>
        capture?.end(
          `upstream connection broke: ${maskUrlsInText(describeError(upError ?? new Error('the upstream closed the connection mid-body')))}`,
        ),
      );
    });
  });
}
