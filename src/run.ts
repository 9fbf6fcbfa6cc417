/** run(): owns the top-level try/catch and maps every failure to an exit code and a message. */
import { EXIT_CODES, SmartError, bugReportUrl, errorText, isSmartError } from './process/errors.js';
import { VERSION } from './process/version.js';
import type { Io } from './process/io.js';
import { scrubMessage } from './process/secrets.js';

export interface RunErrorOptions {
  json: boolean;
  debug: boolean;
}

/** Writes an error the way the chosen format wants and returns its exit code. */
export function reportError(e: unknown, io: Io, opts: RunErrorOptions): number {
  const known = isSmartError(e)
    ? e
    : new SmartError(
        'INTERNAL',
        {
          message: errorText(e),
          report: bugReportUrl(e, {
            version: VERSION,
            node: process.version,
            platform: process.platform,
            home: io.env.HOME || io.env.USERPROFILE,
          }),
        },
        { cause: e },
      );
  const message = scrubMessage(known.message);
  if (opts.json) {
    io.stdout(JSON.stringify({ schemaVersion: 1, error: { code: known.code, message } }, null, 2) + '\n');
  } else {
    io.stderr(`mcp-smart: ${message}\n`);
  }
  if (opts.debug || known.exitCode === EXIT_CODES.internal) {
    const stack = e instanceof Error && e.stack ? e.stack : String(e);
    io.stderr(`${debugText(stack)}\n`);
    let cause = e instanceof Error ? e.cause : undefined;
    while (cause !== undefined) {
      io.stderr(
        `Caused by: ${debugText(cause instanceof Error && cause.stack ? cause.stack : String(JSON.stringify(cause)))}\n`,
      );
      cause = cause instanceof Error ? cause.cause : undefined;
    }
  }
  return known.exitCode;
}

/** The most of one stack or cause --debug prints: a library's error may carry a server's whole answer (100 KB of HTML). */
const MAX_DEBUG_TEXT = 4_000;

/** A stack or cause for --debug: redacted (credential pairs too: it may quote a server), then cut. */
function debugText(text: string): string {
  const safe = scrubMessage(text);
  return safe.length <= MAX_DEBUG_TEXT
    ? safe
    : `${safe.slice(0, MAX_DEBUG_TEXT)}… (${safe.length} characters; cut by mcp-smart)`;
}
