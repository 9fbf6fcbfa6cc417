/**
 * serve's telemetry on the OpenTelemetry SDK: one SERVER span per forwarded `tools/call` and per find_tool, named and
 * attributed after the MCP semantic conventions (`mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name`,
 * `error.type`, plus `mcp_smart.server` and `mcp_smart.outcome`), continuing the caller's W3C trace context
 * (`params._meta.traceparent`, which serve --transport http also fills from the `traceparent` header) and passing
 * the span on to the server behind in the forwarded `_meta`; and metrics: `mcp.server.operation.duration`, calls,
 * errors, find_tool answers. Exported over OTLP/HTTP (JSON). Loaded with a dynamic import only when configured.
 */
import {
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  createTraceState,
  diag,
  isSpanContextValid,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TelemetryConfig } from './config.js';
import { failureOf, type CallTrace, type FindTrace, type Telemetry } from './hook.js';

/** The semantic conventions' buckets for MCP operation durations, in seconds. */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** One OTLP export waits at most this long (OpenTelemetry's default); serve's shutdown waits less (command.ts). */
const EXPORT_TIMEOUT_MS = 10_000;
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;
const FIND_TOOL = 'find_tool';

/** The caller's trace context from `_meta` (W3C `traceparent`/`tracestate`), as the parent of serve's span. */
export function parentContext(meta: Record<string, unknown> | undefined): Context {
  const header = meta?.traceparent;
  if (typeof header !== 'string') return ROOT_CONTEXT;
  const m = TRACEPARENT.exec(header.trim().toLowerCase());
  // Version ff is invalid; a later version is read as far as version 00 goes (W3C Trace Context, "Versioning").
  if (!m || m[1] === 'ff' || (m[1] === '00' && header.trim().length !== 55)) return ROOT_CONTEXT;
  const state = meta?.tracestate;
  const spanContext = {
    traceId: m[2]!,
    spanId: m[3]!,
    traceFlags: parseInt(m[4]!, 16) & 1,
    isRemote: true,
    ...(typeof state === 'string' && state !== '' ? { traceState: createTraceState(state) } : {}),
  };
  return isSpanContextValid(spanContext) ? trace.setSpanContext(ROOT_CONTEXT, spanContext) : ROOT_CONTEXT;
}

/** `_meta` for the server behind: the client's, with `span` as the caller. */
function withSpan(span: Span, meta: Record<string, unknown> | undefined): Record<string, unknown> {
  const sc = span.spanContext();
  const out: Record<string, unknown> = {
    ...meta,
    traceparent: `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`,
  };
  const state = sc.traceState?.serialize();
  if (state) out.tracestate = state;
  else delete out.tracestate;
  return out;
}

class OtelTelemetry implements Telemetry {
  private readonly tracer?: Tracer;
  private readonly duration?: Histogram;
  private readonly calls?: Counter;
  private readonly errors?: Counter;
  private readonly finds?: Counter;

  constructor(
    private readonly traces: BasicTracerProvider | undefined,
    private readonly metrics: MeterProvider | undefined,
    private readonly clock: () => number,
  ) {
    this.tracer = traces?.getTracer('mcp-smart');
    const meter = metrics?.getMeter('mcp-smart');
    if (!meter) return;
    this.duration = meter.createHistogram('mcp.server.operation.duration', {
      unit: 's',
      description: 'Duration of the MCP requests serve answered (forwarded tools/call and find_tool)',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.calls = meter.createCounter('mcp_smart.tool.calls', {
      description: 'Tool calls serve forwarded, by server, tool and outcome',
    });
    this.errors = meter.createCounter('mcp_smart.tool.errors', {
      description: 'Forwarded tool calls that ended in an error result, a JSON-RPC error or a timeout',
    });
    this.finds = meter.createCounter('mcp_smart.find_tool.answers', {
      description: 'find_tool answers: hit (named at least one tool) or miss (named none)',
    });
  }

  private span(name: string, attributes: Attributes, meta: Record<string, unknown> | undefined): Span | undefined {
    return this.tracer?.startSpan(name, { kind: SpanKind.SERVER, attributes }, parentContext(meta));
  }

  toolCall(server: string, tool: string, clientMeta: Record<string, unknown> | undefined): CallTrace {
    const started = this.clock();
    const base: Attributes = { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': tool, 'mcp_smart.server': server };
    const span = this.span(`tools/call ${tool}`, { ...base, 'gen_ai.operation.name': 'execute_tool' }, clientMeta);
    const end = (outcome: string, errorType?: string, message?: string): void => {
      const seconds = (this.clock() - started) / 1000;
      span?.setAttribute('mcp_smart.outcome', outcome);
      if (errorType !== undefined) {
        span?.setAttribute('error.type', errorType);
        if (/^-?\d+$/.test(errorType)) span?.setAttribute('rpc.response.status_code', errorType);
        span?.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message } : {}) });
        this.errors?.add(1, { ...base, 'error.type': errorType });
      }
      span?.end();
      this.calls?.add(1, { ...base, 'mcp_smart.outcome': outcome });
      this.duration?.record(seconds, errorType === undefined ? base : { ...base, 'error.type': errorType });
    };
    return {
      meta: (meta) => (span ? withSpan(span, meta) : meta),
      answered: (result) => (result.isError === true ? end('error_result', 'tool_error') : end('ok')),
      failed: (error) => {
        const f = failureOf(error);
        end(f.outcome, f.errorType, f.message);
      },
    };
  }

  findTool(clientMeta: Record<string, unknown> | undefined): FindTrace {
    const started = this.clock();
    const base: Attributes = { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': FIND_TOOL };
    const span = this.span(`tools/call ${FIND_TOOL}`, { ...base, 'gen_ai.operation.name': 'execute_tool' }, clientMeta);
    const done = (attrs: Attributes, errorType?: string, message?: string): void => {
      span?.setAttributes(attrs);
      if (errorType !== undefined) {
        span?.setAttribute('error.type', errorType);
        span?.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message } : {}) });
      }
      span?.end();
      this.duration?.record(
        (this.clock() - started) / 1000,
        errorType === undefined ? base : { ...base, 'error.type': errorType },
      );
    };
    return {
      answered: (found) => {
        if (found === undefined) return done({ 'mcp_smart.outcome': 'error_result' }, 'tool_error');
        const outcome = found > 0 ? 'hit' : 'miss';
        done({ 'mcp_smart.find.results': found, 'mcp_smart.find.outcome': outcome });
        this.finds?.add(1, { 'mcp_smart.find.outcome': outcome });
      },
      failed: (error) => {
        const f = failureOf(error);
        done({ 'mcp_smart.outcome': f.outcome }, f.errorType, f.message);
      },
    };
  }

  async shutdown(withinMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
    const all = Promise.all([this.traces?.shutdown(), this.metrics?.shutdown()]).then(() => undefined);
    await Promise.race([all.catch(() => undefined), late]);
    clearTimeout(timer);
  }
}

/** Starts the exporters `config` names; `log` hears the first export failure (never a header value). */
export function startTelemetry(config: TelemetryConfig, log: (text: string) => void, clock: () => number): Telemetry {
  let warned = false;
  const once = (text: string): void => {
    if (warned) return;
    warned = true;
    log(`warning: OpenTelemetry export failed (${text}); further failures are not shown`);
  };
  diag.setLogger(
    { error: once, warn: () => undefined, info: () => undefined, debug: () => undefined, verbose: () => undefined },
    DiagLogLevel.ERROR,
  );
  const resource = resourceFromAttributes({ 'service.name': config.serviceName });
  const traces = config.tracesUrl
    ? new BasicTracerProvider({
        resource,
        spanProcessors: [
          new BatchSpanProcessor(new OTLPTraceExporter({ url: config.tracesUrl, timeoutMillis: EXPORT_TIMEOUT_MS })),
        ],
      })
    : undefined;
  const metrics = config.metricsUrl
    ? new MeterProvider({
        resource,
        readers: [
          new PeriodicExportingMetricReader({
            exporter: new OTLPMetricExporter({ url: config.metricsUrl, timeoutMillis: EXPORT_TIMEOUT_MS }),
            exportIntervalMillis: config.metricIntervalMs,
            exportTimeoutMillis: Math.min(EXPORT_TIMEOUT_MS, config.metricIntervalMs),
          }),
        ],
      })
    : undefined;
  return new OtelTelemetry(traces, metrics, clock);
}
