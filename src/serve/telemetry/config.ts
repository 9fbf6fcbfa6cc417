/**
 * Whether serve exports OpenTelemetry, and where: `serve --otlp <url>`, else the standard OTLP environment
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT`;
 * `OTEL_SDK_DISABLED=true` turns it off). Off by default. This file imports nothing of OpenTelemetry: the SDK is
 * loaded (otel.ts) only when this says it is on.
 */
import { parseNumberValue } from '../../process/decimal.js';
import { SmartError } from '../../process/errors.js';
import { redactUrl } from '../../process/redact.js';

export interface TelemetryConfig {
  /** OTLP/HTTP traces URL; undefined: the exporter reads the standard environment itself. */
  tracesUrl?: string;
  /** OTLP/HTTP metrics URL; undefined: the exporter reads the standard environment itself. */
  metricsUrl?: string;
  /** Where the data goes, for serve's start line (credentials and query values redacted). */
  shown: string;
  /** How often metrics are exported (OTEL_METRIC_EXPORT_INTERVAL, default 60 s); also at shutdown. */
  metricIntervalMs: number;
  serviceName: string;
  /** What was ignored in the environment, for serve's log (an unreadable interval: the default is used). */
  ignored?: string;
}

const DEFAULT_METRIC_INTERVAL_MS = 60_000;

/** An http(s) URL, else a usage error naming where it came from. */
function httpUrl(value: string, from: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SmartError('BAD_FLAG', {
      flag: from,
      value: redactUrl(value),
      hint: 'Give an http(s) URL of an OTLP/HTTP collector, e.g. http://127.0.0.1:4318.',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SmartError('BAD_FLAG', {
      flag: from,
      value: redactUrl(value),
      hint: 'OTLP over HTTP needs an http:// or https:// URL.',
    });
  return url;
}

/** `<base>/v1/<signal>`, as the OTLP exporters derive it from OTEL_EXPORTER_OTLP_ENDPOINT. */
const signalUrl = (base: URL, signal: 'traces' | 'metrics'): string =>
  `${base.toString().replace(/\/+$/, '')}/v1/${signal}`;

/**
 * OTEL_METRIC_EXPORT_INTERVAL in plain digits (0x10 is not sixteen ms, "" is the default); read only when exporting.
 * The variable is shared with every OpenTelemetry SDK in the environment, and OpenTelemetry's rule for a value that
 * is not valid is a warning and the default: serve starts, and `ignored` says why the default was used.
 */
function metricInterval(value: string | undefined): { ms: number; ignored?: string } {
  if (value === undefined || value.trim() === '') return { ms: DEFAULT_METRIC_INTERVAL_MS };
  try {
    return {
      ms: parseNumberValue('OTEL_METRIC_EXPORT_INTERVAL', value, {
        kind: 'integer',
        min: 1,
        max: 2_147_483_647,
        example: '60000',
      }),
    };
  } catch (e) {
    const why = e instanceof SmartError ? String(e.details.hint ?? '') : '';
    return {
      ms: DEFAULT_METRIC_INTERVAL_MS,
      ignored: `OTEL_METRIC_EXPORT_INTERVAL is not a number of milliseconds (${why.replace(/\.$/, '')}); metrics are exported every ${DEFAULT_METRIC_INTERVAL_MS / 1000} s`,
    };
  }
}

/** What --otlp and the environment ask for; undefined: telemetry is off. */
export function telemetryConfig(
  otlp: string | undefined,
  env: Record<string, string | undefined>,
): TelemetryConfig | undefined {
  const disabled = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
  const common = (): Pick<TelemetryConfig, 'metricIntervalMs' | 'serviceName' | 'ignored'> => {
    const { ms, ignored } = metricInterval(env.OTEL_METRIC_EXPORT_INTERVAL);
    return {
      metricIntervalMs: ms,
      serviceName: env.OTEL_SERVICE_NAME?.trim() || 'mcp-smart',
      ...(ignored ? { ignored } : {}),
    };
  };
  if (otlp !== undefined) {
    const base = httpUrl(otlp, '--otlp');
    return {
      ...common(),
      tracesUrl: signalUrl(base, 'traces'),
      metricsUrl: signalUrl(base, 'metrics'),
      shown: redactUrl(base.toString()),
    };
  }
  if (disabled) return undefined;
  const generic = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const metrics = env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim();
  if (!generic && !traces && !metrics) return undefined;
  // Checked here so that a typo is a clear error at start, not silence (the exporters would drop every export).
  const named = (value: string | undefined, name: string): URL | undefined =>
    value ? httpUrl(value, name) : undefined;
  const base = named(generic, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const t = named(traces, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const m = named(metrics, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT');
  return {
    ...common(),
    ...(t ? { tracesUrl: t.toString() } : base ? { tracesUrl: signalUrl(base, 'traces') } : {}),
    ...(m ? { metricsUrl: m.toString() } : base ? { metricsUrl: signalUrl(base, 'metrics') } : {}),
    shown: [base, t, m]
      .filter((u): u is URL => u !== undefined)
      .map((u) => redactUrl(u.toString()))
      .join(', '),
  };
}
