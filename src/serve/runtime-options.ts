/** What serve's runtime (runtime.ts) is built from: the command's parsed options and the parts it opened. */
import type { UsageStats } from '../core/types.js';
import type { ServeLevel, ServeMode } from './served-view.js';
import type { Counting } from './deps.js';
import type { LoadHintRules } from '../core/hints/load-hints.js';
import type { UsageStore } from '../core/store/types.js';
import type { PoolOptions } from './pool.js';
import type { ServeSetup } from './setup.js';
import type { ServeScope } from './scope.js';
import type { AuditLog } from './auth/audit.js';
import type { Telemetry } from './telemetry/hook.js';

export interface RuntimeOptions {
  setup: ServeSetup;
  mode: ServeMode;
  level: ServeLevel;
  limit: number;
  key: string;
  activate: boolean;
  counting: Counting;
  usage: UsageStats;
  /** Learn into the usage store (default on). */
  learn: boolean;
  /** The label learned calls are attributed to (undefined: none). */
  user?: string | undefined;
  /** The scope derived from use (scope.ts): this project's and user's tools; undefined: none. */
  scope?: ServeScope;
  /** Load hints on pass-through tools (undefined: off). */
  loadHints?: LoadHintRules;
  /** The usage store learning writes to (the command opens and closes it); default: the file setup names. */
  store?: UsageStore;
  record?: string;
  spawnTimeoutMs: number;
  callTimeoutMs: number;
  log: (text: string) => void;
  /** --debug lines (undefined: none). */
  debug?: (text: string) => void;
  /** The cache folder find_tool's index is read from and written to (undefined: --no-cache). */
  indexCacheDir?: string;
  now: () => number;
  /** Monotonic ms for latency. */
  clock: () => number;
  pool?: Partial<PoolOptions>;
  /** How long a tools/list waits for servers still starting (first-answer.ts; default 10 s). */
  firstListWaitMs?: number;
  /** --audit-log: who called which tool, with which outcome (auth/audit.ts). */
  audit?: AuditLog;
  /** The label a token subject's learned calls are stored under (hashed unless the config says plain). */
  subjectLabel?: (subject: string) => string;
  /** Spans and metrics per call (telemetry/otel.ts); undefined when off: a call then does no telemetry work. */
  telemetry?: Telemetry;
}

export type ToolResult = Record<string, unknown>;
