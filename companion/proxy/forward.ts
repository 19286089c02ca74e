/**
 * @module HTTP forwarding under `/v1`, Node stream to Node stream: the request goes upstream at
 * once and its body streams up as it arrives; the upstream's response is written to Codex's
 * socket chunk by chunk, with its headers as they came (minus hop-by-hop ones and those Node
 * writes itself). Capture is a copy on the side (capture/channel.ts): nothing here waits for it,
 * and nothing it does can fail the forward. A profile's model override is the one case that
 * buffers the request body, since it rewrites it. The server hands proxy paths here straight
 * from node:http, before the API's router: a request Codex waits on pays for nothing else.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
// By file, as upstream-client.ts imports the agents.
import undiciErrors from 'undici/lib/core/errors.js';
import type { CaptureChannel, HttpCapture } from '../capture/channel';
import type { ExchangeError } from '../protocol/exchange';
import { INTERNAL_ERROR_BODY } from '../lib/internal-error';
import { describeError, type Logger } from '../lib/log';
import { maskUrlsInText } from '../lib/url-secrets';
import { decodeBody, parseEncoding } from '../http/decode';
import { openAiErrorBody } from './errors';
import { refuseBrowserRequest } from './browser-guard';
import { proxySuffix, targetPath } from './paths';
import { headerPairsOf, withoutHopByHop, type HeaderPairs } from '../http/headers';
import type { RouteOk, Router } from './route';

export interface ForwardDeps {
  router: Router;
  dispatcher: Dispatcher;
  channel: CaptureChannel;
  log: Logger;
  /** While paused, requests are forwarded but not recorded. */
  capturing(): boolean;
  /** Streams cut by shutdown say so in their record. */
  shuttingDown(): boolean;
  /** The dispatcher's longest silence between body chunks, named when it cuts a response. */
  bodyTimeoutMs: number;
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
/** Written by Node itself for the connection to Codex; the upstream's values do not apply to it. */
const NODE_OWNED = ['date'];

/** Lower-cased name/value pairs as they came on the wire, repeats and order kept. */
function rawPairs(raw: string[]): HeaderPairs {
  const out: HeaderPairs = [];
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i].toLowerCase(), raw[i + 1]]);
  return out;
}

function flatHeaders(pairs: HeaderPairs): string[] {
  return pairs.flatMap(([k, v]) => [k, v]);
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
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

function upstreamFailure(err: unknown, upstream: string): { status: number; type: string; message: string } {
  const timeout =
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.ConnectTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError;
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

/** The request body as it arrives, copied to capture on its way upstream. */
async function* tapped(incoming: IncomingMessage, capture: HttpCapture | null): AsyncGenerator<Buffer> {
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    capture?.requestChunk(chunk);
    yield chunk;
  }
  capture?.requestEnd();
}

function writeError(out: ServerResponse, status: number, type: string, message: string, code: string): void {
  if (out.headersSent) return void out.destroy();
  out.writeHead(status, { 'content-type': 'application/json', 'x-codex-devtools-error': type });
  out.end(openAiErrorBody(type, message, code));
}

/** Why an exchange was cut before its response ended, by whom: the companion's shutdown, or Codex. */
function cutShort(deps: ForwardDeps, answered: boolean): ExchangeError {
  if (deps.shuttingDown())
    return {
      code: 'shutdown',
      message: `the companion shut down before the ${answered ? 'response ended' : 'upstream answered'}; the upstream request was cancelled`,
      upstreamCode: null,
    };
  return {
    code: 'client_aborted',
    message: answered
      ? 'Codex closed the connection before the response ended; the upstream request was cancelled'
      : 'Codex closed the connection before the upstream answered',
    upstreamCode: null,
  };
}

/** The node:http handler of the proxy paths: browsers refused, the rest forwarded. */
export function createForwardHandler(deps: ForwardDeps): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  return (incoming, outgoing) => {
    if (refuseBrowserRequest(incoming, outgoing)) return;
    forward(deps, incoming, outgoing).catch((err: unknown) => {
      deps.log.error(`unhandled error on ${incoming.method} ${targetPath(incoming.url)}: ${describeError(err)}`);
      if (outgoing.headersSent) return void outgoing.destroy();
      outgoing.writeHead(500, { 'content-type': 'application/json' }).end(INTERNAL_ERROR_BODY);
    });
  };
}

async function forward(deps: ForwardDeps, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
  const suffix = proxySuffix(url.pathname);
  const inHeaders = rawPairs(incoming.rawHeaders);
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
    return;
  }
  await send(deps, incoming, outgoing, decision, capture);
}

async function send(deps: ForwardDeps, incoming: IncomingMessage, out: ServerResponse, decision: RouteOk, capture: HttpCapture | null) {
  const method = (incoming.method ?? 'GET') as Dispatcher.HttpMethod;
  let codexLeft = false;
  let controller: Dispatcher.DispatchController | null = null;
  // Codex went away (before or during the response): the upstream request is cancelled.
  out.on('close', () => {
    if (out.writableFinished) return;
    codexLeft = true;
    controller?.abort(new Error('Codex closed the connection'));
  });

  let drop = ['host'];
  let body: Buffer | AsyncIterable<Buffer> | undefined;
  if (!hasBody(incoming)) {
    capture?.requestEnd();
  } else if (decision.modelOverride) {
    let raw: Buffer;
    try {
      raw = await readAll(incoming, capture);
    } catch (err) {
      capture?.fail('aborted', {
        code: 'client_aborted',
        message: `Codex closed the connection while sending the request (${describeError(err)})`,
        upstreamCode: null,
      });
      return void out.destroy();
    }
    body = raw;
    const o = overrideModel(raw, incoming.headers['content-encoding'] ?? null, decision.modelOverride);
    if (o) {
      body = Buffer.from(o.body);
      drop = [...drop, 'content-length', ...(o.dropEncoding ? ['content-encoding'] : [])];
    }
  } else {
    body = tapped(incoming, capture);
  }

  // The upstream's answer goes to Codex from undici's own callbacks: no body stream between them.
  let answered = false;
  let bodyless = false;
  let settled = false;
  const settle = (how: () => void) => {
    if (settled) return;
    settled = true;
    how();
  };
  const before = (err: Error) => {
    if (codexLeft) return capture?.fail('aborted', cutShort(deps, false));
    if (incoming.errored || (!incoming.complete && incoming.destroyed)) {
      capture?.fail('aborted', {
        code: 'client_aborted',
        message: `Codex closed the connection while sending the request (${describeError(err)})`,
        upstreamCode: null,
      });
      return void out.destroy();
    }
    const f = upstreamFailure(err, decision.route.upstream);
    deps.log.warn(f.message);
    capture?.fail('upstream_error', { code: f.type, message: f.message, upstreamCode: null });
    writeError(out, f.status, f.type, f.message, 'codex_devtools_upstream');
  };
  const during = (err: Error) => {
    out.destroy();
    if (codexLeft) capture?.fail('aborted', cutShort(deps, true));
    else if (err instanceof undiciErrors.BodyTimeoutError)
      capture?.end(`upstream connection broke: no body bytes within ${deps.bodyTimeoutMs} ms, the body timeout`);
    else capture?.end(`upstream connection broke: ${maskUrlsInText(describeError(err))}`);
  };
  out.on('drain', () => controller?.resume());

  const target = new URL(decision.url);
  deps.dispatcher.dispatch(
    {
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method,
      headers: flatHeaders(withoutHopByHop(decision.headers, drop)),
      // undici streams any async iterable (core/request.js, isIterable); its types list only Readable.
      body: body as Buffer | undefined,
    },
    {
      onRequestStart(c) {
        controller = c;
        if (codexLeft) c.abort(new Error('Codex closed the connection'));
      },
      onResponseStart(c, statusCode, headers) {
        // Informational answers (100, 103) are the connection's business, not Codex's.
        if (statusCode < 200) return;
        const pairs = headerPairsOf(headers);
        capture?.head(statusCode, pairs, Date.now());
        if (codexLeft) return c.abort(new Error('Codex closed the connection'));
        answered = true;
        out.writeHead(statusCode, flatHeaders(withoutHopByHop(pairs, NODE_OWNED)));
        if (NULL_BODY_STATUS.has(statusCode) || method === 'HEAD') {
          bodyless = true;
          return void out.end();
        }
        // Headers go out now, before the first body byte (an SSE stream may wait long for it).
        out.flushHeaders();
      },
      onResponseData(c, chunk) {
        if (bodyless) return;
        // Backpressure: a slow Codex slows the upstream read instead of filling our memory.
        if (!out.write(chunk)) c.pause();
        capture?.chunk(chunk);
      },
      onResponseEnd() {
        if (!bodyless) out.end();
        settle(() => capture?.end());
      },
      onResponseError(_c, err) {
        settle(() => (answered ? during(err) : before(err)));
      },
    },
  );
}
