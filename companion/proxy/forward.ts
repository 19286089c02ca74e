/**
 * @module HTTP forwarding under `/v1`: every request goes to its upstream at once, byte for byte,
 * and its response streams back as it arrives. Capture is a tee on the side (capture/queue.ts):
 * nothing here waits for it, and nothing it does can fail the forward.
 */
import type { Context } from 'hono';
import { request as upstreamRequest, errors as undiciErrors, type Dispatcher } from 'undici';
import { AddonManager } from '../capture/addons';
import { ExchangeFlow } from '../capture/flow';
import type { CaptureQueue } from '../capture/queue';
import { newExchangeId } from '../capture/ids';
import { describeError, type Logger } from '../lib/log';
import { maskUrlsInText } from '../lib/url-secrets';
import { decodeBody, parseEncoding } from './decode';
import { openAiError } from './errors';
import { headerPairs, headerPairsOf, withoutHopByHop, type HeaderPairs } from './headers';
import type { RouteOk, Router } from './route';

export interface ForwardDeps {
  router: Router;
  dispatcher: Dispatcher;
  addons: AddonManager;
  queue: CaptureQueue;
  log: Logger;
  maxCaptureBytes: number;
  /** While paused, requests are forwarded but not recorded. */
  capturing(): boolean;
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/** Path after the `/v1` prefix, e.g. `/v1/responses` → `/responses`. */
export function proxySuffix(pathname: string): string {
  return pathname.replace(/^\/v1(?=\/|$)/, '') || '/';
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

function upstreamFailure(err: unknown, upstream: string): { status: number; type: string; message: string } {
  const timeout =
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.ConnectTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError;
  const what = timeout ? 'timed out waiting for' : 'could not reach';
  return {
    status: timeout ? 504 : 502,
    type: timeout ? 'upstream_timeout' : 'upstream_unreachable',
    // `upstream` is already masked; the client's own error text may quote the wire URL.
    message: `codex-devtools (the local companion proxy) ${what} the upstream ${upstream}: ${maskUrlsInText(describeError(err))}`,
  };
}

export function createForwardHandler(deps: ForwardDeps) {
  return async function forward(c: Context): Promise<Response> {
    const req = c.req.raw;
    const url = new URL(req.url);
    const suffix = proxySuffix(url.pathname);
    const inHeaders = headerPairs(req.headers);
    const decision = deps.router.resolve({ headers: inHeaders, suffix, query: url.search });
    const flow = deps.capturing()
      ? new ExchangeFlow(
          {
            id: newExchangeId(),
            transport: 'http',
            method: req.method,
            path: url.pathname,
            query: url.search,
            upstreamUrl: decision.ok ? decision.url : null,
            requestHeaders: inHeaders,
            route: decision.route,
            maxCaptureBytes: deps.maxCaptureBytes,
          },
          deps.addons,
        )
      : null;

    let raw: Uint8Array | null = null;
    if (req.body) {
      try {
        raw = new Uint8Array(await req.arrayBuffer());
      } catch (err) {
        // Codex went away while sending its body: nothing to forward.
        await flow?.fail('aborted', {
          code: 'client_aborted',
          message: `Codex closed the connection while sending the request (${describeError(err)})`,
          upstreamCode: null,
        });
        return new Response(null, { status: 400 });
      }
    }

    if (!decision.ok) {
      const res = openAiError(decision.status, decision.type, decision.message, 'codex_devtools_profile');
      if (flow) {
        // Nothing is forwarded, so nothing waits: recorded right away.
        flow.setRequestBody(raw);
        flow.setResponseHead(decision.status, headerPairs(res.headers));
        flow.pushResponseBytes(Buffer.from(await res.clone().arrayBuffer()));
        await flow.finishResponse();
      }
      return res;
    }
    return send(deps, req, decision, raw, flow);
  };
}

async function send(
  deps: ForwardDeps,
  req: Request,
  decision: RouteOk,
  raw: Uint8Array | null,
  flow: ExchangeFlow | null,
): Promise<Response> {
  let body = raw;
  let drop = ['host', 'content-length'];
  if (decision.modelOverride && raw) {
    const o = overrideModel(raw, req.headers.get('content-encoding'), decision.modelOverride);
    if (o) {
      body = o.body;
      if (o.dropEncoding) drop = [...drop, 'content-encoding'];
    }
  }
  const outHeaders = withoutHopByHop(decision.headers, drop);
  // Parsing the body (often megabytes of history) and the request hooks wait until it is sent.
  if (flow) deps.queue.pushTask(flow, () => flow.setRequestBody(raw));
  const abort = new AbortController();
  const onClientAbort = () => abort.abort(new Error('Codex closed the connection'));
  req.signal.addEventListener('abort', onClientAbort, { once: true });

  let res: Dispatcher.ResponseData;
  try {
    res = await upstreamRequest(decision.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: flatHeaders(outHeaders),
      body: body && body.byteLength > 0 ? body : undefined,
      dispatcher: deps.dispatcher,
      signal: abort.signal,
    });
  } catch (err) {
    req.signal.removeEventListener('abort', onClientAbort);
    if (req.signal.aborted) {
      if (flow)
        deps.queue.pushTask(flow, () =>
          flow.fail('aborted', {
            code: 'client_aborted',
            message: 'Codex closed the connection before the upstream answered',
            upstreamCode: null,
          }),
        );
      return new Response(null, { status: 499 });
    }
    const f = upstreamFailure(err, decision.route.upstream);
    deps.log.warn(f.message);
    if (flow) deps.queue.pushTask(flow, () => flow.fail('upstream_error', { code: f.type, message: f.message, upstreamCode: null }));
    return openAiError(f.status, f.type, f.message, 'codex_devtools_upstream');
  }

  const pairs = headerPairsOf(res.headers);
  if (flow) {
    const at = Date.now();
    deps.queue.pushTask(flow, () => flow.setResponseHead(res.statusCode, pairs, { at }));
  }
  const outResponseHeaders = new Headers();
  for (const [k, v] of withoutHopByHop(pairs)) outResponseHeaders.append(k, v);

  if (NULL_BODY_STATUS.has(res.statusCode) || req.method === 'HEAD') {
    res.body.resume();
    req.signal.removeEventListener('abort', onClientAbort);
    if (flow) deps.queue.pushTask(flow, () => flow.finishResponse());
    return new Response(null, { status: res.statusCode, headers: outResponseHeaders });
  }

  const iterator = res.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let settled = false;
  const settle = (how: () => Promise<void>) => {
    if (settled) return;
    settled = true;
    req.signal.removeEventListener('abort', onClientAbort);
    if (flow) deps.queue.pushTask(flow, how);
  };
  const aborted = () =>
    settle(() =>
      flow!.fail('aborted', {
        code: 'client_aborted',
        message: 'Codex closed the connection before the response ended; the upstream request was cancelled',
        upstreamCode: null,
      }),
    );

  // highWaterMark 0: the next chunk is read from the upstream only when Codex's socket took the
  // previous one, so a slow Codex slows the upstream read instead of filling our memory.
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: IteratorResult<Buffer>;
        try {
          next = await iterator.next();
        } catch (err) {
          if (req.signal.aborted || abort.signal.aborted) aborted();
          else settle(() => flow!.finishResponse(`upstream connection broke: ${describeError(err)}`));
          controller.error(err);
          return;
        }
        if (next.done) {
          settle(() => flow!.finishResponse());
          controller.close();
          return;
        }
        controller.enqueue(next.value);
        if (flow) deps.queue.pushBytes(flow, next.value);
      },
      cancel() {
        abort.abort(new Error('Codex closed the connection'));
        res.body.destroy();
        aborted();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, { status: res.statusCode, headers: outResponseHeaders });
}
