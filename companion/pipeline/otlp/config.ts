/**
 * @module What the OTLP export is told to do: `start --otlp-*` options merged over the standard
 * `OTEL_*` variables. No OpenTelemetry import here: a companion without export loads nothing more.
 * Precedence: a command-line option, then the signal's own variable, then the general one.
 */

/** The `--otlp-*` options as the command line gives them. */
export interface OtlpSettings {
  endpoint?: string;
  /** `name=value` pairs. */
  headers?: string[];
  resource?: string[];
  /** `traces,metrics`, `traces` or `metrics`. */
  signals?: string;
  content?: boolean;
  includeImported?: boolean;
}

export type OtlpProtocol = 'http/protobuf' | 'http/json';
export type OtlpSignal = 'traces' | 'metrics';

export interface SignalTarget {
  url: string;
  headers: Record<string, string>;
  protocol: OtlpProtocol;
}

export interface OtlpConfig {
  traces: SignalTarget | null;
  metrics: SignalTarget | null;
  resource: Record<string, string>;
  /** Prompt, response and tool text in spans (`--otlp-content`); off by default. */
  content: boolean;
  includeImported: boolean;
  /** One export request, the SDK's own retries included. */
  timeoutMillis: number;
  metricIntervalMillis: number;
  batch: { maxQueue: number; maxBatch: number; delayMillis: number };
  /** A turn's root span is sent once its thread starts another turn, or after this long without an exchange. */
  turnIdleMillis: number;
}

/** A configuration the user has to fix; the CLI prints it as a usage error. */
export class OtlpConfigError extends Error {
  override name = 'OtlpConfigError';
}

const SIGNAL_PATH: Record<OtlpSignal, string> = { traces: 'v1/traces', metrics: 'v1/metrics' };

/** `k=v` (a value may contain `=`), as `--otlp-header` and `--otlp-resource` take it. */
export function parsePair(what: string, pair: string): [string, string] {
  const i = pair.indexOf('=');
  const key = i > 0 ? pair.slice(0, i).trim() : '';
  if (!key) throw new OtlpConfigError(`${what} must look like name=value, not ${JSON.stringify(pair)}`);
  return [key, pair.slice(i + 1).trim()];
}

/** The W3C-baggage-like list the OTEL_*_HEADERS and OTEL_RESOURCE_ATTRIBUTES variables use: `k=v,k2=v%202`. */
export function parseList(name: string, value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (value ?? '').split(',')) {
    if (!part.trim()) continue;
    const [k, v] = parsePair(name, part);
    try {
      out[decodeURIComponent(k)] = decodeURIComponent(v);
    } catch {
      throw new OtlpConfigError(`${name}: ${JSON.stringify(part)} is not percent-encoded correctly`);
    }
  }
  return out;
}

function httpUrl(name: string, value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new OtlpConfigError(`${name} must be an http(s) URL, not ${JSON.stringify(value)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new OtlpConfigError(`${name} must be an http(s) URL (OTLP/HTTP), not ${JSON.stringify(value)}`);
  return value;
}

/** A base endpoint gets the signal's path appended, as the OTLP exporter specification says. */
function signalUrl(base: string, signal: OtlpSignal): string {
  return `${base.replace(/\/+$/, '')}/${SIGNAL_PATH[signal]}`;
}

function protocolOf(name: string, value: string | undefined): OtlpProtocol | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'http/protobuf' || value === 'http/json') return value;
  throw new OtlpConfigError(`${name} must be http/protobuf or http/json, not ${JSON.stringify(value)} (gRPC is not supported)`);
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new OtlpConfigError(`${name} must be a positive number, not ${JSON.stringify(raw)}`);
  return n;
}

function signalsOf(settings: OtlpSettings, env: NodeJS.ProcessEnv): Set<OtlpSignal> {
  if (settings.signals !== undefined) {
    const list = settings.signals
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = list.filter((s) => s !== 'traces' && s !== 'metrics');
    if (bad.length || !list.length)
      throw new OtlpConfigError(`--otlp-signals takes traces, metrics or traces,metrics, not ${JSON.stringify(settings.signals)}`);
    return new Set(list as OtlpSignal[]);
  }
  const out = new Set<OtlpSignal>();
  if (env.OTEL_TRACES_EXPORTER !== 'none') out.add('traces');
  if (env.OTEL_METRICS_EXPORTER !== 'none') out.add('metrics');
  return out;
}

/** Where a signal goes and with which headers, or null when nothing names an endpoint for it. */
function target(settings: OtlpSettings, env: NodeJS.ProcessEnv, signal: OtlpSignal): SignalTarget | null {
  const S = signal.toUpperCase();
  let url: string | null = null;
  if (settings.endpoint) url = signalUrl(httpUrl('--otlp-endpoint', settings.endpoint), signal);
  else if (env[`OTEL_EXPORTER_OTLP_${S}_ENDPOINT`])
    url = httpUrl(`OTEL_EXPORTER_OTLP_${S}_ENDPOINT`, env[`OTEL_EXPORTER_OTLP_${S}_ENDPOINT`]!);
  else if (env.OTEL_EXPORTER_OTLP_ENDPOINT)
    url = signalUrl(httpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', env.OTEL_EXPORTER_OTLP_ENDPOINT), signal);
  if (!url) return null;
  const headers = {
    ...parseList('OTEL_EXPORTER_OTLP_HEADERS', env.OTEL_EXPORTER_OTLP_HEADERS),
    ...parseList(`OTEL_EXPORTER_OTLP_${S}_HEADERS`, env[`OTEL_EXPORTER_OTLP_${S}_HEADERS`]),
    ...Object.fromEntries((settings.headers ?? []).map((h) => parsePair('--otlp-header', h))),
  };
  const protocol =
    protocolOf(`OTEL_EXPORTER_OTLP_${S}_PROTOCOL`, env[`OTEL_EXPORTER_OTLP_${S}_PROTOCOL`]) ??
    protocolOf('OTEL_EXPORTER_OTLP_PROTOCOL', env.OTEL_EXPORTER_OTLP_PROTOCOL) ??
    'http/protobuf';
  return { url, headers, protocol };
}

/**
 * The export configuration, or null when export is off: no endpoint configured, every signal
 * switched off, or `OTEL_SDK_DISABLED=true`. Throws `OtlpConfigError` on a bad value.
 */
export function resolveOtlpConfig(settings: OtlpSettings | undefined, env: NodeJS.ProcessEnv): OtlpConfig | null {
  const s = settings ?? {};
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const signals = signalsOf(s, env);
  const traces = signals.has('traces') ? target(s, env, 'traces') : null;
  const metrics = signals.has('metrics') ? target(s, env, 'metrics') : null;
  if (!traces && !metrics) {
    if (s.content || s.includeImported || s.headers?.length || s.resource?.length || s.signals)
      throw new OtlpConfigError('--otlp-* options need an endpoint: --otlp-endpoint <url> or OTEL_EXPORTER_OTLP_ENDPOINT');
    return null;
  }
  const resource: Record<string, string> = {
    'service.name': 'codex-devtools',
    ...parseList('OTEL_RESOURCE_ATTRIBUTES', env.OTEL_RESOURCE_ATTRIBUTES),
    ...(env.OTEL_SERVICE_NAME ? { 'service.name': env.OTEL_SERVICE_NAME } : {}),
    ...Object.fromEntries((s.resource ?? []).map((r) => parsePair('--otlp-resource', r))),
  };
  return {
    traces,
    metrics,
    resource,
    content: s.content === true,
    includeImported: s.includeImported === true,
    timeoutMillis: positive(env, 'OTEL_EXPORTER_OTLP_TIMEOUT', 10_000),
    metricIntervalMillis: positive(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000),
    batch: {
      maxQueue: positive(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048),
      maxBatch: positive(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512),
      delayMillis: positive(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000),
    },
    turnIdleMillis: positive(env, 'CODEX_DEVTOOLS_OTLP_TURN_IDLE_MS', 30_000),
  };
}
