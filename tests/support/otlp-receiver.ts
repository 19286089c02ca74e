/**
 * An OTLP/HTTP receiver on loopback, standing in for a Collector. Decodes protobuf bodies with
 * the official opentelemetry-proto definitions (tests/fixtures/otlp-proto, read with protobufjs,
 * independent of the SDK's own encoder) and JSON bodies as the OTLP JSON mapping says, into one
 * plain shape. Can answer 503 to test retries, or hold every request open and never answer (a
 * hung backend). Test-only.
 */
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

const PROTO_DIR = path.resolve('tests/fixtures/otlp-proto');

type Value = string | number | boolean | null | Value[] | { [k: string]: Value };

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 3 client. */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Record<string, Value>;
  links: { traceId: string; spanId: string; attributes: Record<string, Value> }[];
  status: { code: number; message: string };
  resource: Record<string, Value>;
  scope: { name: string; version: string };
  schemaUrl: string;
}

export interface ReceivedMetric {
  name: string;
  unit: string;
  /** Each data point's attributes and value: `sum`/`count` for histograms, `value` for sums. */
  points: { attributes: Record<string, Value>; sum?: number; count?: number; value?: number }[];
  resource: Record<string, Value>;
}

export interface ReceivedRequest {
  path: string;
  contentType: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request held open by a hung receiver. */
export interface HeldRequest {
  path: string;
  /** Epoch ms when its body had arrived. */
  at: number;
  /** Set when the client gave up on it (closed the connection). */
  closedAt: number | null;
}

export interface OtlpReceiver {
  /** Base URL, e.g. `http://127.0.0.1:4318` (the exporter appends /v1/traces). */
  url: string;
  requests: ReceivedRequest[];
  spans: ReceivedSpan[];
  metrics: ReceivedMetric[];
  /** Requests answered 503 so far. */
  refused: number;
  /** Answer every request with this status (503 to refuse), 200 to accept, or `hang` to never answer. */
  answer: number | 'hang';
  /** Requests held open while `answer` was `hang`, oldest first. */
  held: HeldRequest[];
  /** The most requests to one path held open at the same time. */
  peakHeld(path: string): number;
  close(): Promise<void>;
}

let root: protobuf.Root | null = null;
function protoRoot(): protobuf.Root {
  if (root) return root;
  const r = new protobuf.Root();
  r.resolvePath = (_origin, target) => path.join(PROTO_DIR, target);
  r.loadSync([
    'opentelemetry/proto/collector/trace/v1/trace_service.proto',
    'opentelemetry/proto/collector/metrics/v1/metrics_service.proto',
  ]);
  return (root = r);
}

const hex = (v: unknown): string => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : typeof v === 'string' ? v : '');

/** An AnyValue in either form: protobufjs `toObject` (camelCase, longs as strings) or OTLP JSON. */
function anyValue(v: any): Value {
  if (!v) return null;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('arrayValue' in v) return (v.arrayValue?.values ?? []).map(anyValue);
  if ('kvlistValue' in v) return attributes(v.kvlistValue?.values);
  return null;
}

function attributes(list: any[] | undefined): Record<string, Value> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, anyValue(kv.value)]));
}

function spansOf(req: any): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of req.resourceSpans ?? [])
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        out.push({
          traceId: hex(s.traceId),
          spanId: hex(s.spanId),
          parentSpanId: hex(s.parentSpanId),
          name: s.name,
          kind: Number(s.kind ?? 0),
          startTimeUnixNano: BigInt(s.startTimeUnixNano ?? 0),
          endTimeUnixNano: BigInt(s.endTimeUnixNano ?? 0),
          attributes: attributes(s.attributes),
          links: (s.links ?? []).map((l: any) => ({
            traceId: hex(l.traceId),
            spanId: hex(l.spanId),
            attributes: attributes(l.attributes),
          })),
          status: { code: Number(s.status?.code ?? 0), message: s.status?.message ?? '' },
          resource: attributes(rs.resource?.attributes),
          scope: { name: ss.scope?.name ?? '', version: ss.scope?.version ?? '' },
          schemaUrl: ss.schemaUrl ?? '',
        });
  return out;
}

function metricsOf(req: any): ReceivedMetric[] {
  const out: ReceivedMetric[] = [];
  for (const rm of req.resourceMetrics ?? [])
    for (const sm of rm.scopeMetrics ?? [])
      for (const m of sm.metrics ?? []) {
        const points = m.histogram
          ? m.histogram.dataPoints.map((p: any) => ({
              attributes: attributes(p.attributes),
              sum: Number(p.sum ?? 0),
              count: Number(p.count ?? 0),
            }))
          : (m.sum?.dataPoints ?? m.gauge?.dataPoints ?? []).map((p: any) => ({
              attributes: attributes(p.attributes),
              value: Number(p.asDouble ?? p.asInt ?? 0),
            }));
        out.push({ name: m.name, unit: m.unit ?? '', points, resource: attributes(rm.resource?.attributes) });
      }
  return out;
}

function decode(kind: 'trace' | 'metrics', contentType: string, body: Buffer): any {
  if (contentType.includes('json')) return JSON.parse(body.toString('utf8'));
  const name =
    kind === 'trace'
      ? 'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'
      : 'opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest';
  const type = protoRoot().lookupType(name);
  return type.toObject(type.decode(body), { longs: String, enums: Number, defaults: false, arrays: true });
}

export async function startOtlpReceiver(opts: { answer?: OtlpReceiver['answer'] } = {}): Promise<OtlpReceiver> {
  const peaks = new Map<string, number>();
  const held: HeldRequest[] = [];
  const r: Omit<OtlpReceiver, 'url' | 'close'> = {
    requests: [],
    spans: [],
    metrics: [],
    refused: 0,
    answer: opts.answer ?? 200,
    held,
    peakHeld: (p) => peaks.get(p) ?? 0,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = String(req.headers['content-type'] ?? '');
      r.requests.push({ path: req.url ?? '', contentType, headers: req.headers, body });
      if (r.answer === 'hang') {
        const h: HeldRequest = { path: req.url ?? '', at: Date.now(), closedAt: null };
        held.push(h);
        const open = held.filter((x) => x.path === h.path && x.closedAt === null).length;
        peaks.set(h.path, Math.max(peaks.get(h.path) ?? 0, open));
        res.on('close', () => (h.closedAt = Date.now()));
        return;
      }
      if (r.answer !== 200) {
        r.refused++;
        res.writeHead(r.answer, { 'content-type': 'text/plain' }).end('unavailable');
        return;
      }
      try {
        if (req.url === '/v1/traces') r.spans.push(...spansOf(decode('trace', contentType, body)));
        else if (req.url === '/v1/metrics') r.metrics.push(...metricsOf(decode('metrics', contentType, body)));
        else {
          res.writeHead(404).end();
          return;
        }
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(err));
        return;
      }
      res
        .writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' })
        .end(contentType.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(r, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as OtlpReceiver;
}
