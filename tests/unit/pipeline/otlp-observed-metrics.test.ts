import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { observedMetrics } from '../../../companion/pipeline/otlp/observed-metrics';
import type { ExportSignalStatus } from '../../../companion/protocol/api';

/** An exporter whose requests stay open until the test answers them. */
function heldExporter() {
  const open: ((r: ExportResult) => void)[] = [];
  const inner = {
    export: (_m: ResourceMetrics, done: (r: ExportResult) => void) => void open.push(done),
    forceFlush: async () => {},
    shutdown: async () => {},
  } as unknown as PushMetricExporter;
  return { inner, open };
}

const metrics = {} as ResourceMetrics;
const freshStatus = () => ({ exported: 0, failures: 0, lastError: null, lastSuccessAt: null }) as unknown as ExportSignalStatus;

describe('the metric exporter as the status sees it', () => {
  it('fails a round that finds the previous request open, saying so when nothing else is known', () => {
    const { inner, open } = heldExporter();
    const status = freshStatus();
    const results: ExportResult[] = [];
    const exporter = observedMetrics(inner, status, () => {});
    exporter.export(metrics, (r) => results.push(r));
    exporter.export(metrics, (r) => results.push(r));
    expect(open).toHaveLength(1);
    expect(results.map((r) => r.code)).toEqual([ExportResultCode.FAILED]);
    expect(status.failures).toBe(1);
    expect(status.lastError!.message).toBe('the backend has not answered the previous metrics export yet');
  });

  it("keeps the backend's own last error when a later round finds a request still open", () => {
    const { inner, open } = heldExporter();
    const status = freshStatus();
    const exporter = observedMetrics(inner, status, () => {});
    exporter.export(metrics, () => {});
    open[0]({ code: ExportResultCode.FAILED, error: new Error('connect ECONNREFUSED 127.0.0.1:4318') });
    exporter.export(metrics, () => {});
    exporter.export(metrics, () => {});
    expect(open).toHaveLength(2);
    expect(status.failures).toBe(2);
    expect(status.lastError!.message).toMatch(/ECONNREFUSED/);
  });
});
