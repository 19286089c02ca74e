/**
 * @module The metric exporter as `/api/status` sees it: each export round of the SDK's reader
 * counted, and at most one request open at a time, whatever the backend does.
 */
import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode } from '@opentelemetry/core';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { describeError } from '../../lib/log';
import { maskUrlsInText } from '../../lib/url-secrets';
import type { ExportSignalStatus } from '../../protocol/api';

/**
 * Counts the metric reader's export rounds for `/api/status`; a failed round is covered by the
 * next (cumulative). One request at a time: the reader stops waiting for a round at its timeout,
 * but a request to a backend that hangs lives on until the SDK's own timeout, so a round that
 * finds one still open fails at once rather than opening a second.
 */
export function observedMetrics(inner: PushMetricExporter, status: ExportSignalStatus, onFailure: () => void): PushMetricExporter {
  let inFlight = false;
  const failed = (message: string, keepKnown = false) => {
    status.failures++;
    if (!keepKnown || !status.lastError) status.lastError = { message: maskUrlsInText(message), at: Date.now() };
    onFailure();
  };
  return {
    export(metrics: ResourceMetrics, done: (r: ExportResult) => void) {
      if (inFlight) {
        // The round fails, but the backend's own last error (a refused connection the exporter is
        // still retrying, say) says more than "still waiting"; that is shown only when it is all we know.
        const error = new Error('the backend has not answered the previous metrics export yet');
        failed(error.message, true);
        return done({ code: ExportResultCode.FAILED, error });
      }
      inFlight = true;
      inner.export(metrics, (r) => {
        inFlight = false;
        if (r.code === ExportResultCode.SUCCESS) {
          status.exported++;
          status.lastSuccessAt = Date.now();
        } else failed(r.error ? describeError(r.error) : 'export failed');
        done(r);
      });
    },
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
    selectAggregationTemporality: inner.selectAggregationTemporality?.bind(inner),
    selectAggregation: inner.selectAggregation?.bind(inner),
  };
}
