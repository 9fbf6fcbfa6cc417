// serve's telemetry settings and trace-context reading on their own (src/serve/telemetry/): when it is on and where
// it exports, the errors for a bad endpoint, how a failure is classified, and which traceparent values are taken;
// test/e2e/serve-telemetry.test.ts shows them through a real serve and a test collector.
import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { SmartError } from '../../src/process/errors.js';
import { withTraceHeaders } from '../../src/serve/telemetry/carrier.js';
import { telemetryConfig } from '../../src/serve/telemetry/config.js';
import { failureOf } from '../../src/serve/telemetry/hook.js';
import { parentContext } from '../../src/serve/telemetry/otel.js';

describe('telemetryConfig', () => {
  it('is off with neither --otlp nor an OTLP endpoint in the environment', () => {
    expect(telemetryConfig(undefined, {})).toBeUndefined();
    expect(telemetryConfig(undefined, { OTEL_EXPORTER_OTLP_HEADERS: 'a=b', OTEL_SERVICE_NAME: 'x' })).toBeUndefined();
  });

  it('--otlp names the collector: /v1/traces and /v1/metrics under it', () => {
    expect(telemetryConfig('http://127.0.0.1:4318/', {})).toMatchObject({
      tracesUrl: 'http://127.0.0.1:4318/v1/traces',
      metricsUrl: 'http://127.0.0.1:4318/v1/metrics',
      serviceName: 'mcp-smart',
      metricIntervalMs: 60_000,
    });
  });

  it('the standard environment: the generic endpoint, overridden per signal; OTEL_SDK_DISABLED turns it off', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp/v1/traces',
      OTEL_METRIC_EXPORT_INTERVAL: '5000',
      OTEL_SERVICE_NAME: 'gateway-1',
    };
    expect(telemetryConfig(undefined, env)).toMatchObject({
      tracesUrl: 'https://traces.example/otlp/v1/traces',
      metricsUrl: 'http://collector:4318/v1/metrics',
      metricIntervalMs: 5000,
      serviceName: 'gateway-1',
    });
    // Traces only: no metrics exporter (it would post to a default localhost endpoint nobody named).
    const tracesOnly = telemetryConfig(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' });
    expect(tracesOnly?.metricsUrl).toBeUndefined();
    expect(telemetryConfig(undefined, { ...env, OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
  });

  it('a bad endpoint is a usage error naming the flag or variable, credentials redacted', () => {
    const err = (f: () => unknown): SmartError => {
      try {
        f();
      } catch (e) {
        return e as SmartError;
      }
      throw new Error('no error');
    };
    const flag = err(() => telemetryConfig('localhost:4318', {}));
    expect([flag.code, flag.exitCode]).toEqual(['BAD_FLAG', 2]);
    expect(flag.message).toMatch(/--otlp.*http/);
    const env = err(() => telemetryConfig(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://user:pw123@host/x' }));
    expect(env.message).toContain('OTEL_EXPORTER_OTLP_ENDPOINT');
    expect(env.message).not.toContain('pw123');
    const shown = telemetryConfig('https://user:pw123@collector.example:4318', {})?.shown;
    expect(shown).toBe('https://redacted:redacted@collector.example:4318/');
  });

  it('OTEL_METRIC_EXPORT_INTERVAL is plain digits when exporting (0x10 was 16 ms); else, as OpenTelemetry asks, the default with a warning', () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    for (const value of ['0x10', '1e3', ' 500 ', '1_000', '0']) {
      const config = telemetryConfig(undefined, { ...on, OTEL_METRIC_EXPORT_INTERVAL: value });
      expect(config?.metricIntervalMs, value).toBe(60_000);
      expect(config?.ignored, value).toContain('OTEL_METRIC_EXPORT_INTERVAL is not a number of milliseconds');
    }
    expect(telemetryConfig(undefined, { ...on, OTEL_METRIC_EXPORT_INTERVAL: '' })?.metricIntervalMs).toBe(60_000);
    expect(telemetryConfig(undefined, { ...on, OTEL_METRIC_EXPORT_INTERVAL: '500' })?.metricIntervalMs).toBe(500);
    // Telemetry off: the variable is not read, so a stray value stops nothing.
    expect(telemetryConfig(undefined, { OTEL_METRIC_EXPORT_INTERVAL: '0x10' })).toBeUndefined();
  });
});

describe('failureOf', () => {
  it('classifies a timeout, a JSON-RPC error, serve refusing a result, a cancelled call', () => {
    expect(failureOf(new SmartError('SERVE_CALL_TIMEOUT', { server: 's', ms: 5 }))).toMatchObject({
      outcome: 'timeout',
      errorType: 'timeout',
    });
    expect(failureOf(Object.assign(new Error('bad params'), { code: -32602 }))).toMatchObject({
      outcome: 'protocol_error',
      errorType: '-32602',
      message: 'bad params',
    });
    expect(failureOf(new SmartError('SERVE_BAD_RESULT', { server: 's', tool: 't', problem: 'p' }))).toMatchObject({
      outcome: 'protocol_error',
      errorType: 'SERVE_BAD_RESULT',
    });
    expect(failureOf(Object.assign(new Error('aborted'), { name: 'AbortError' })).errorType).toBe('cancelled');
  });
});

describe('parentContext', () => {
  const parent = (meta: Record<string, unknown> | undefined) => trace.getSpanContext(parentContext(meta));
  it('takes a valid W3C traceparent (and tracestate) from _meta as the remote parent', () => {
    const sc = parent({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'a=1' });
    expect(sc).toMatchObject({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
    });
    expect(sc?.isRemote).toBe(true);
    expect(sc?.traceState?.get('a')).toBe('1');
  });
  it('ignores what is not one: absent, malformed, all-zero ids, version ff, extra fields on version 00', () => {
    for (const traceparent of [
      undefined,
      42,
      'garbage',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra',
    ])
      expect(parent({ traceparent })).toBeUndefined();
    // A later version is read as far as version 00 goes.
    expect(parent({ traceparent: '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-more' })?.spanId).toBe(
      '00f067aa0ba902b7',
    );
  });
});

describe('withTraceHeaders', () => {
  const tp = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  it("puts the headers' trace context in each request's _meta; a request naming its own keeps it", () => {
    const body = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 1 } } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'y', _meta: { traceparent: 'own' } } },
      { jsonrpc: '2.0', id: 3, result: {} },
    ];
    expect(withTraceHeaders(body, { traceparent: tp, tracestate: 'a=1' })).toEqual([
      { ...body[0], params: { name: 'x', _meta: { progressToken: 1, traceparent: tp, tracestate: 'a=1' } } },
      body[1],
      body[2],
    ]);
    expect(withTraceHeaders(body[0], {})).toBe(body[0]);
  });
});
