/**
 * Servers whose tools serve does not know because they failed to start (or list) when serve started. Each is
 * tried again in the background, 2 s after the failure, then after 4 s, 8 s … at most every 60 s, for as long as
 * serve runs; once it lists, its tools are served and clients hear tools/list_changed. Meanwhile find_tool and
 * list_tools name it with the reason it failed (redacted like every server error).
 */
import { mapLimited, SERVER_START_CONCURRENCY } from '../core/map-limited.js';
import { errorText } from '../process/errors.js';

export const RETRY_FIRST_MS = 2000;
export const RETRY_MAX_MS = 60_000;

export interface Unstarted {
  server: string;
  reason: string;
  /** Seconds until the next attempt (0: under way). */
  retryInSeconds: number;
}

export interface StartRetryOptions {
  /** Starts and lists the server (throws when it cannot); `later`: on a retry, not at serve start. */
  list: (server: string, later: boolean) => Promise<void>;
  /** The reason the server failed, as the pool tells it (redacted). */
  reasonOf: (server: string, e: unknown) => string;
  log: (text: string) => void;
  now: () => number;
  firstMs?: number;
  maxMs?: number;
}

interface Waiting {
  reason: string;
  delayMs: number;
  at: number;
  timer?: NodeJS.Timeout;
}

export class StartRetry {
  private readonly waiting = new Map<string, Waiting>();
  private stopped = false;

  constructor(private readonly opts: StartRetryOptions) {}

  /** Starts and lists the servers, at most 16 at a time; each that fails is tried again later. */
  async startAll(servers: readonly string[]): Promise<void> {
    await mapLimited(servers, SERVER_START_CONCURRENCY, async (server) => {
      try {
        await this.opts.list(server, false);
      } catch (e) {
        // Serve is ending (the client left while this server was starting): nothing to warn about or retry.
        if (this.stopped) return;
        this.opts.log(
          `warning: ${errorText(e)}; its tools are not served until it starts (tried again in the background)`,
        );
        this.failed(server, e);
      }
    });
  }

  /** The server failed to start or list: try again later. */
  failed(server: string, e: unknown): void {
    if (this.stopped) return;
    const before = this.waiting.get(server);
    const first = this.opts.firstMs ?? RETRY_FIRST_MS;
    const delayMs = before ? Math.min(before.delayMs * 2, this.opts.maxMs ?? RETRY_MAX_MS) : first;
    const w: Waiting = { reason: this.opts.reasonOf(server, e), delayMs, at: this.opts.now() + delayMs };
    w.timer = setTimeout(() => void this.attempt(server, w), delayMs);
    w.timer.unref();
    this.waiting.set(server, w);
  }

  private async attempt(server: string, w: Waiting): Promise<void> {
    w.timer = undefined;
    if (this.stopped) return;
    try {
      await this.opts.list(server, true);
      this.waiting.delete(server);
      this.opts.log(`server "${server}" started on a later attempt; its tools are served now`);
    } catch (e) {
      if (this.stopped) return;
      this.failed(server, e);
      const next = this.waiting.get(server);
      const max = this.opts.maxMs ?? RETRY_MAX_MS;
      if (next && next.delayMs === max && w.delayMs < max)
        this.opts.log(
          `warning: server "${server}" still does not start (${next.reason}); retrying every ${max / 1000} s`,
        );
    }
  }

  /** The servers still waiting for a successful start, by name. */
  pending(): Unstarted[] {
    const now = this.opts.now();
    return [...this.waiting.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([server, w]) => ({
        server,
        reason: w.reason,
        retryInSeconds: w.timer ? Math.max(0, Math.ceil((w.at - now) / 1000)) : 0,
      }));
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.waiting.values()) if (w.timer) clearTimeout(w.timer);
  }
}

/** list_tools' line for a server that has not started: its name, why, and when it is tried again. */
export function unstartedLine(u: Unstarted): string {
  const when = u.retryInSeconds > 0 ? `in ${u.retryInSeconds} s` : 'now';
  return `(server "${u.server}" has not started: ${u.reason}; its tools are not listed — mcp-smart tries it again ${when})`;
}
