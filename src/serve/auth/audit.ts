/**
 * The audit log (`serve --audit-log <file>`): one JSON line per tool call — when, who (token subject, groups,
 * client id), which tool (and the tool call_tool reached), the outcome, how long, and the NAMES of the arguments.
 * Argument values, results and tokens are never written. The file is appended to, created 0600; lines are written
 * in order, in the background, and flushed at shutdown.
 */
import { appendFileSafe, type OwnedKind } from '../../process/safe-write.js';

export type AuditOutcome = 'ok' | 'error' | 'refused' | 'failed';

export interface AuditEntry {
  subject?: string;
  groups?: readonly string[];
  client?: string;
  tool: string;
  /** The tool a meta-tool (call_tool) reached, as its id "server.tool". */
  target?: string;
  outcome: AuditOutcome;
  /** The filter that refused the call ("serve.auth.groups.contractors.excludeTools"). */
  rule?: string;
  durationMs: number;
  arguments: readonly string[];
}

/** An audit log's lines are JSON objects that start with "time": an existing file is appended to only when it is one. */
const AUDIT_LOG_KIND: OwnedKind = { mark: /^\s*\{"time":/, what: 'an mcp-smart audit log (JSON lines)' };

export class AuditLog {
  private lines: string[] = [];
  private writing: Promise<void> | undefined;

  constructor(
    readonly file: string,
    private readonly log: (text: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Creates the file (0600) now, so a path that cannot be written is refused before serving starts. */
  async open(): Promise<void> {
    await appendFileSafe(this.file, '', { mode: 0o600, kind: AUDIT_LOG_KIND });
  }

  record(entry: AuditEntry): void {
    const line = {
      time: new Date(this.now()).toISOString(),
      ...(entry.subject !== undefined ? { subject: entry.subject } : {}),
      ...(entry.groups && entry.groups.length > 0 ? { groups: [...entry.groups] } : {}),
      ...(entry.client !== undefined ? { client: entry.client } : {}),
      tool: entry.tool,
      ...(entry.target !== undefined ? { target: entry.target } : {}),
      outcome: entry.outcome,
      ...(entry.rule !== undefined ? { rule: entry.rule } : {}),
      durationMs: entry.durationMs,
      arguments: [...entry.arguments],
    };
    this.lines.push(JSON.stringify(line) + '\n');
    this.writing ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.lines.length > 0) {
        const text = this.lines.join('');
        const n = this.lines.length;
        this.lines = [];
        try {
          await appendFileSafe(this.file, text, { mode: 0o600 });
        } catch (e) {
          this.log(
            `warning: could not write ${n} audit line(s) to ${this.file}: ${e instanceof Error ? e.message : String(e)}`,
          );
        }
      }
    } finally {
      this.writing = undefined;
    }
  }

  /** Waits until every recorded line is written. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }
}

/** The argument names of a call (never the values). */
export function argumentNames(args: unknown): string[] {
  return typeof args === 'object' && args !== null && !Array.isArray(args) ? Object.keys(args).sort() : [];
}
