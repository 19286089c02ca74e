/**
 * @module The OTLP export, loaded only when configured (server.ts imports it dynamically, so a
 * companion without export never loads the SDK). An addon after the store: once an exchange is
 * stored and analysed it becomes spans and metric points, queued for a sender that runs on its
 * own timers. Nothing here is awaited by forwarding or capture, and no failure reaches Codex.
 *
 * The resource is built from our attributes and the SDK's own (`telemetry.sdk.*`) only: no
 * resource detectors, because the process detector would send the command line, and with it
 * any `--otlp-header` secret.
 */
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Link } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { TracerProvider, type IdGenerator, type ReadableSpan, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { describeError, type Logger } from '../../lib/log';
import type { ExportSignalStatus, ExportStatus } from '../../protocol/api';
import type { ExchangeRecord } from '../../protocol/exchange';
import { maskUrl } from '../../lib/url-secrets';
import type { OtlpConfig, SignalTarget } from './config';
import { ImportedSpans } from './imported';
import { createMetrics } from './metrics';
import { observedMetrics } from './observed-metrics';
import { SCHEMA_URL } from './semconv';
import { BatchSender } from './sender';
import { chatSpan, type SpanSpec } from './spans';
import { TurnTracker } from './turns';

export interface OtlpExport {
  /** An exchange was stored and analysed: the export reads its record. */
  exchangeStored(exchange: { id: string; kind: string }): Promise<void>;
  /** Exchanges an import added: spans only, and only with `includeImported` (never awaited). */
  imported(ids: string[], last: boolean): void;
  status(): ExportStatus;
  /** Failures of both signals and the latest message, for the capture state the panel shows. */
  problems(): { exportFailures: number; exportLastError: string | null };
  /** Ends open turns and sends what is queued, for a bounded time; never throws. */
  shutdown(): Promise<void>;
}

export interface OtlpDeps {
  /** The stored record of a finished exchange, with its analysis. */
  record(id: string): Promise<ExchangeRecord | null>;
  log: Logger;
  version: string;
  /** Called after each failed export, to tell live clients (never awaited). */
  onFailure?: () => void;
}

const SCOPE = 'codex-devtools';

/** Ids the next span gets: the SDK asks its generator, and ours answers with the span spec's. */
class SpecIds implements IdGenerator {
  next: { traceId: string; spanId: string } | null = null;
  generateTraceId = () => this.next?.traceId ?? randomBytes(16).toString('hex');
  generateSpanId = () => this.next?.spanId ?? randomBytes(8).toString('hex');
}

async function spanExporter(t: SignalTarget, timeoutMillis: number): Promise<SpanExporter> {
  const opts = { url: t.url, headers: t.headers, timeoutMillis };
  if (t.protocol === 'http/json') return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(opts);
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(opts);
}

async function metricExporter(t: SignalTarget, timeoutMillis: number): Promise<PushMetricExporter> {
  const opts = { url: t.url, headers: t.headers, timeoutMillis };
  if (t.protocol === 'http/json') return new (await import('@opentelemetry/exporter-metrics-otlp-http')).OTLPMetricExporter(opts);
  return new (await import('@opentelemetry/exporter-metrics-otlp-proto')).OTLPMetricExporter(opts);
}

function exportOnce<T>(exporter: { export(items: T, done: (r: ExportResult) => void): void }, items: T): Promise<void> {
  return new Promise((resolve, reject) => {
    exporter.export(items, (r) => (r.code === ExportResultCode.SUCCESS ? resolve() : reject(r.error ?? new Error('export failed'))));
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export async function startOtlpExport(config: OtlpConfig, deps: OtlpDeps): Promise<OtlpExport> {
  const onFailure = () => {
    try {
      deps.onFailure?.();
    } catch (err) {
      deps.log.warn(`otlp: failure listener: ${describeError(err)}`);
    }
  };
  const resource = defaultResource().merge(resourceFromAttributes({ 'service.version': deps.version, ...config.resource }));
  const targetOf = (t: SignalTarget) => ({ endpoint: maskUrl(t.url), protocol: t.protocol });

  let sender: BatchSender<ReadableSpan> | null = null;
  let tracerProvider: TracerProvider | null = null;
  let traceExporter: SpanExporter | null = null;
  let emit: (spec: SpanSpec) => void = () => {};
  if (config.traces) {
    const exporter = (traceExporter = await spanExporter(config.traces, config.timeoutMillis));
    const s = (sender = new BatchSender<ReadableSpan>(
      (batch) => exportOnce(exporter, batch),
      { ...config.batch, onFailure },
      targetOf(config.traces),
    ));
    // Ended spans go to our queue, not the SDK's batch processor (see queue.ts).
    const processor: SpanProcessor = {
      onStart: () => {},
      onEnd: (span) => s.add([span]),
      forceFlush: async () => {},
      shutdown: async () => {},
    };
    const ids = new SpecIds();
    tracerProvider = new TracerProvider({ resource, idGenerator: ids, spanProcessors: [processor] });
    const tracer = tracerProvider.getTracer(SCOPE, deps.version, { schemaUrl: SCHEMA_URL });
    emit = (spec) => {
      ids.next = { traceId: spec.traceId, spanId: spec.spanId };
      const parent = spec.parentSpanId
        ? trace.setSpanContext(ROOT_CONTEXT, {
            traceId: spec.traceId,
            spanId: spec.parentSpanId,
            traceFlags: TraceFlags.SAMPLED,
            isRemote: true,
          })
        : ROOT_CONTEXT;
      const links: Link[] = spec.links.map((l) => ({
        context: { traceId: l.traceId, spanId: l.spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true },
        attributes: l.attributes,
      }));
      // Dates, not numbers: the SDK reads a number below its process start as a performance.now() offset.
      const span = tracer.startSpan(
        spec.name,
        {
          kind: spec.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
          startTime: new Date(spec.startMs),
          attributes: spec.attributes,
          links,
        },
        parent,
      );
      if (spec.error) span.setStatus({ code: SpanStatusCode.ERROR, message: spec.error });
      span.end(new Date(spec.endMs));
      ids.next = null;
    };
  }
  const turns = new TurnTracker((spec) => emit(spec), config.turnIdleMillis);
  // Imported history has its own turns: its exchanges must not end a live turn of the same thread.
  const spanSender = sender;
  const imported =
    spanSender && config.includeImported
      ? new ImportedSpans({
          record: deps.record,
          emit: (spec) => emit(spec),
          room: () => config.batch.maxQueue - spanSender.snapshot().queued,
          content: config.content,
          log: deps.log,
          page: Math.max(1, Math.min(64, Math.floor(config.batch.maxQueue / 4))),
        })
      : null;
  const sweep = setInterval(() => turns.sweep(Date.now()), Math.min(5000, config.turnIdleMillis / 2));
  sweep.unref();

  let meterProvider: MeterProvider | null = null;
  let recordMetrics: (r: ExchangeRecord) => void = () => {};
  const metricsStatus: ExportSignalStatus | null = config.metrics
    ? { ...targetOf(config.metrics), exported: 0, queued: 0, dropped: 0, failures: 0, lastError: null, lastSuccessAt: null, retryAt: null }
    : null;
  if (config.metrics && metricsStatus) {
    const exporter = observedMetrics(await metricExporter(config.metrics, config.timeoutMillis), metricsStatus, onFailure);
    const reader = new PeriodicExportingMetricReader({
      exporter,
      exportIntervalMillis: config.metricIntervalMillis,
      exportTimeoutMillis: Math.min(config.timeoutMillis, config.metricIntervalMillis),
    });
    meterProvider = new MeterProvider({ resource, readers: [reader] });
    recordMetrics = createMetrics(meterProvider.getMeter(SCOPE, deps.version, { schemaUrl: SCHEMA_URL }));
  }

  const take = (r: ExchangeRecord) => {
    if (r.kind !== 'model') return;
    if (config.traces) {
      emit(chatSpan(r, { content: config.content }));
      turns.add(r, Date.now());
    }
    recordMetrics(r);
  };

  const finished = async (flow: { id: string; kind: string }) => {
    if (flow.kind !== 'model') return;
    const record = await deps.record(flow.id);
    if (record) take(record);
  };

  const tracesStatus = () => {
    const s = sender?.snapshot();
    return s ? { ...s, dropped: s.dropped + (imported?.dropped ?? 0) } : null;
  };

  let closing: Promise<void> | null = null;
  const shutdown = async () => {
    clearInterval(sweep);
    try {
      imported?.close();
      turns.endAll();
    } catch (err) {
      deps.log.warn(`otlp: ending open turns failed: ${describeError(err)}`);
    }
    // Bounded: a backend that is down must not hold up the companion's exit.
    const deadline = Date.now() + Math.min(config.timeoutMillis, 5000);
    const work = Promise.allSettled([
      sender?.drain(deadline),
      meterProvider?.shutdown({ timeoutMillis: Math.max(0, deadline - Date.now()) }),
    ]);
    await Promise.race([work, sleep(Math.max(0, deadline - Date.now()) + 500)]);
    await Promise.race([Promise.allSettled([tracerProvider?.shutdown(), traceExporter?.shutdown()]), sleep(500)]);
  };

  return {
    exchangeStored: finished,
    imported: (ids, last) => imported?.add(ids, last),
    problems: () => {
      const signals = [sender?.status, metricsStatus].filter((x) => x !== null && x !== undefined);
      const last = signals
        .map((x) => x.lastError)
        .reduce<{ message: string; at: number } | null>((a, b) => (b && (!a || b.at > a.at) ? b : a), null);
      return { exportFailures: signals.reduce((a, x) => a + x.failures, 0), exportLastError: last?.message ?? null };
    },
    status: () => ({ traces: tracesStatus(), metrics: metricsStatus ? { ...metricsStatus } : null, content: config.content }),
    shutdown: () => (closing ??= shutdown()),
  };
}
