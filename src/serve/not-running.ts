/**
 * Why a tool id names nothing callable because its server is not running: the server part of the id is one serve
 * knows of (configured, or tried at start), and describe_tool and call_tool say why that server serves no tools —
 * a variable not set (named, never its value), a failed start (its error, redacted like every server error, and
 * when it is tried again), approval pending or switched off, or still starting — instead of "no tool".
 */
import { SmartError } from '../process/errors.js';
import type { ServerDefinition } from '../core/types.js';
import type { Unstarted } from './start-retry.js';
import { unsetReason } from './unset-variables.js';

export interface NotRunningParts {
  definitions: readonly ServerDefinition[];
  /** Servers found but not started, with why (setup.ts). */
  held: ReadonlyMap<string, string> | undefined;
  unstarted: () => readonly Unstarted[];
  /** True while the server's start is under way. */
  starting: (server: string) => boolean;
  /** True when the server's tools are known (listed, cached or from a snapshot). */
  listed: (server: string) => boolean;
}

/** The server a tool id names: the longest of `servers` the id starts with, followed by a dot. */
export function serverOfId(id: string, servers: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const s of servers) if (id.startsWith(`${s}.`) && (best === undefined || s.length > best.length)) best = s;
  return best;
}

/** Why `server` serves no tools now; undefined when it does (or serve knows no such server). */
export function whyNotRunning(server: string, parts: NotRunningParts): string | undefined {
  const held = parts.held?.get(server);
  if (held) return held;
  const def = parts.definitions.find((d) => d.name === server);
  if (!def) return undefined;
  const unset = unsetReason(def);
  if (unset) return unset;
  const failed = parts.unstarted().find((u) => u.server === server);
  if (failed)
    return `it failed to start (${failed.reason}); mcp-smart tries it again ${failed.retryInSeconds > 0 ? `in ${failed.retryInSeconds} s` : 'now'}`;
  if (!parts.listed(server) && parts.starting(server)) return 'it is still starting; try again in a moment';
  return undefined;
}

/** The refusal for a tool id whose server is not running, or undefined (then it is simply an unknown tool). */
export function notRunningError(id: string, parts: NotRunningParts): SmartError | undefined {
  const names = [...parts.definitions.map((d) => d.name), ...(parts.held?.keys() ?? [])];
  const server = serverOfId(id, names);
  const reason = server === undefined ? undefined : whyNotRunning(server, parts);
  return server !== undefined && reason !== undefined
    ? new SmartError('SERVE_SERVER_UNAVAILABLE', { server, reason })
    : undefined;
}
