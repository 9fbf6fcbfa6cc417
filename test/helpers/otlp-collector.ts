// A test OpenTelemetry collector: a local HTTP server on an ephemeral port receiving OTLP/HTTP JSON, as serve's
// exporters send it (POST /v1/traces, /v1/metrics). It keeps every request (path, headers, parsed body) and answers
// as a collector does ({} — no partial success). The shapes below are the OTLP JSON encoding's fields the tests read
// (the exporters' own request types are internal to @opentelemetry/otlp-transformer).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
export interface KeyValue {
  key: string;
  value: AnyValue;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  status?: { code?: number; message?: string };
}
export interface OtlpDataPoint {
  attributes: KeyValue[];
  asInt?: number | string;
  asDouble?: number;
  count?: number | string;
  sum?: number;
}
export interface OtlpMetric {
  name: string;
  unit?: string;
  sum?: { dataPoints: OtlpDataPoint[] };
  histogram?: { dataPoints: OtlpDataPoint[] };
}
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface Collector {
  /** The base URL (what `--otlp` or OTEL_EXPORTER_OTLP_ENDPOINT takes). */
  url: string;
  requests: Received[];
  spans: () => OtlpSpan[];
  /** The last export of each metric (serve exports cumulative totals). */
  metrics: () => Map<string, OtlpMetric>;
  close: () => Promise<void>;
}

/** A span's or data point's attributes as a plain object. */
export function attrs(list: KeyValue[]): Record<string, string | number | boolean | undefined> {
  return Object.fromEntries(
    list.map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
        value.doubleValue ??
        value.boolValue,
    ]),
  );
}

export async function startCollector(): Promise<Collector> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (text += d));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  type Traces = { resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[] };
  type Metrics = { resourceMetrics?: { scopeMetrics?: { metrics?: OtlpMetric[] }[] }[] };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans: () =>
      requests
        .filter((r) => r.path === '/v1/traces')
        .flatMap((r) => (r.body as Traces).resourceSpans ?? [])
        .flatMap((rs) => rs.scopeSpans ?? [])
        .flatMap((ss) => ss.spans ?? []),
    metrics: () => {
      const last = new Map<string, OtlpMetric>();
      for (const r of requests.filter((q) => q.path === '/v1/metrics'))
        for (const rm of (r.body as Metrics).resourceMetrics ?? [])
          for (const sm of rm.scopeMetrics ?? []) for (const m of sm.metrics ?? []) last.set(m.name, m);
      return last;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
