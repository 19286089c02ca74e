import { describe, expect, it } from 'vitest';
import { OtlpConfigError, resolveOtlpConfig } from '../../../companion/pipeline/otlp/config';

describe('OTLP export configuration', () => {
  it('is off without an endpoint, and with OTEL_SDK_DISABLED', () => {
    expect(resolveOtlpConfig(undefined, {})).toBeNull();
    expect(resolveOtlpConfig({}, { OTEL_RESOURCE_ATTRIBUTES: 'a=b' })).toBeNull();
    expect(resolveOtlpConfig({ endpoint: 'http://c:4318' }, { OTEL_SDK_DISABLED: 'true' })).toBeNull();
  });

  it('appends the signal paths to a base endpoint and defaults to protobuf', () => {
    const c = resolveOtlpConfig({ endpoint: 'https://cloud.langfuse.com/api/public/otel/' }, {})!;
    expect(c.traces).toEqual({ url: 'https://cloud.langfuse.com/api/public/otel/v1/traces', headers: {}, protocol: 'http/protobuf' });
    expect(c.metrics!.url).toBe('https://cloud.langfuse.com/api/public/otel/v1/metrics');
    expect(c.content).toBe(false);
  });

  it('reads the standard variables: signal endpoints as given, headers percent-decoded, JSON protocol', () => {
    const c = resolveOtlpConfig(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://jaeger:4318/v1/traces',
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Basic%20abc,x-team=a',
      OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'x-team=b',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=dev,team=platform',
      OTEL_SERVICE_NAME: 'codex-team',
    })!;
    expect(c.traces).toEqual({
      url: 'http://jaeger:4318/v1/traces',
      headers: { Authorization: 'Basic abc', 'x-team': 'a' },
      protocol: 'http/json',
    });
    expect(c.metrics).toEqual({
      url: 'http://collector:4318/v1/metrics',
      headers: { Authorization: 'Basic abc', 'x-team': 'b' },
      protocol: 'http/json',
    });
    expect(c.resource).toEqual({ 'service.name': 'codex-team', 'deployment.environment': 'dev', team: 'platform' });
  });

  it('lets command-line options win over the variables', () => {
    const c = resolveOtlpConfig(
      {
        endpoint: 'http://mine:4318',
        headers: ['x-team=cli', 'authorization=Bearer a=b'],
        resource: ['team=cli'],
        signals: 'traces',
        content: true,
      },
      {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://env:4318/v1/traces',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-team=env',
        OTEL_RESOURCE_ATTRIBUTES: 'team=env',
      },
    )!;
    expect(c.traces).toEqual({
      url: 'http://mine:4318/v1/traces',
      headers: { 'x-team': 'cli', authorization: 'Bearer a=b' },
      protocol: 'http/protobuf',
    });
    expect(c.metrics).toBeNull();
    expect(c.resource.team).toBe('cli');
    expect(c.content).toBe(true);
  });

  it('switches a signal off with OTEL_*_EXPORTER=none', () => {
    const c = resolveOtlpConfig(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_METRICS_EXPORTER: 'none' })!;
    expect(c.traces).not.toBeNull();
    expect(c.metrics).toBeNull();
  });

  it.each([
    [{ endpoint: 'ftp://x' }, {}, /--otlp-endpoint must be an http\(s\) URL/],
    [{ endpoint: 'http://x', headers: ['novalue'] }, {}, /--otlp-header must look like name=value/],
    [{ endpoint: 'http://x', signals: 'logs' }, {}, /--otlp-signals takes traces, metrics/],
    [{ endpoint: 'http://x' }, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, /gRPC is not supported/],
    [{ endpoint: 'http://x' }, { OTEL_EXPORTER_OTLP_TIMEOUT: 'soon' }, /OTEL_EXPORTER_OTLP_TIMEOUT must be a positive number/],
    [{ content: true }, {}, /need an endpoint/],
  ])('refuses %j %j with a clear message', (settings, env, message) => {
    expect(() => resolveOtlpConfig(settings, env)).toThrow(OtlpConfigError);
    expect(() => resolveOtlpConfig(settings, env)).toThrow(message);
  });
});
