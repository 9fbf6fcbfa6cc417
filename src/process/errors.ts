/** SmartError, the known failure whose text comes from the catalog (error-catalog.ts), and the exit codes. */
import { ERROR_CATALOG, type CatalogEntry, type Details, type ErrorCode } from './error-catalog.js';
import type { ExitCode } from './exit-codes.js';

export { EXIT_CODES, type ExitCode } from './exit-codes.js';
export { ERROR_CATALOG, type ErrorCode } from './error-catalog.js';

/** The project's issue tracker, for the prefilled bug report of an internal error. */
export const ISSUES_URL = 'https://github.com/mcp-smart/mcp-smart/issues/new';

/** A known failure. Its text comes from ERROR_CATALOG; `cause` keeps the underlying error. */
export class SmartError extends Error {
  readonly code: ErrorCode;
  readonly details: Details;
  readonly exitCode: ExitCode;
  /** Why this usually happens, when the catalog says. */
  readonly why?: string;
  /** README anchor documenting the fix, when the catalog names one. */
  readonly docs?: string;

  constructor(code: ErrorCode, details: Details = {}, options?: { cause?: unknown }) {
    const entry: CatalogEntry = ERROR_CATALOG[code];
    super(entry.message(details), options);
    this.name = 'SmartError';
    this.code = code;
    this.details = details;
    this.exitCode = entry.exitCode;
    if (entry.cause !== undefined) this.why = entry.cause;
    if (entry.docs !== undefined) this.docs = entry.docs;
  }
}

/**
 * A new-issue link with the title and body filled in: the error's name, the first line of its message, the
 * version, Node and the platform. Paths under the home folder are shortened to ~ so none leak into the report.
 */
export function bugReportUrl(
  e: unknown,
  context: { version: string; node: string; platform: string; home?: string },
): string {
  const name = e instanceof Error ? e.name : typeof e;
  let line = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
  if (context.home && context.home.length > 1) line = line.split(context.home).join('~');
  line = line.slice(0, 200);
  const body = [
    `**What happened**: ${name}: ${line}`,
    '',
    `mcp-smart ${context.version}, Node ${context.node}, ${context.platform}`,
    '',
    '**Command and --debug output** (remove anything private):',
    '',
  ].join('\n');
  const params = new URLSearchParams({ title: `Internal error: ${name}: ${line}`.slice(0, 120), body });
  return `${ISSUES_URL}?${params.toString()}`;
}

export function isSmartError(e: unknown): e is SmartError {
  return e instanceof SmartError;
}

/** A failed request to a remote service as REMOTE_FAILED (exit 3), whatever was thrown (fetch failed, a timeout, …). */
export function remoteFailure(e: unknown, service: string): SmartError {
  if (isSmartError(e)) return e;
  const cause = e instanceof Error && e.cause instanceof Error ? ` (${e.cause.message})` : '';
  return new SmartError('REMOTE_FAILED', { service, reason: `${errorText(e)}${cause}` }, { cause: e });
}

/** Text of any thrown value, without a stack. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
