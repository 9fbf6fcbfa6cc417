/**
 * When serve may answer a client's tools/list while the servers behind are still starting (issue 40.1): serve
 * answers `initialize` / `server/discover` at once, and a tools/list at once too when what it serves does not wait
 * on a server (meta mode's own tools, lists from the cache). Otherwise the answer waits for the servers' first
 * lists, at most `waitMs`, and goes out with what is ready; clients hear tools/list_changed as the rest arrive.
 */

/** Default for `serve.firstListWait` / `--first-list-wait`: how long a first tools/list waits for starting servers. */
export const DEFAULT_FIRST_LIST_WAIT_MS = 10_000;
/** Over stdio the servers start once the client's first message said what it declares, or after this long. */
export const START_WITHOUT_CLIENT_MS = 1000;

export class FirstAnswer {
  private startup?: Promise<void>;
  private done = false;
  /** Starts the servers' first listing (set by the command; serve's tests of the runtime leave it unset). */
  begin?: () => Promise<void>;

  constructor(private readonly waitMs: number) {}

  /** Starts the servers' first listing once (resolves once each has listed or failed). */
  start(): Promise<void> {
    this.startup ??= (this.begin?.() ?? Promise.resolve()).finally(() => (this.done = true));
    return this.startup;
  }

  /** True once every server listed or failed at start (or none had to be started). */
  get settled(): boolean {
    return this.done;
  }

  /** Resolves when every server has listed or failed (find_tool and calls wait for it: bounded by spawn timeouts). */
  listed(): Promise<void> {
    return this.start();
  }

  /**
   * Resolves when `pending` has (the servers' first lists and the lists for the client's declaration), or after
   * `waitMs` — whichever is first. The wait is counted from the request, so every client gets at most that long.
   */
  async within(pending: Promise<unknown>): Promise<void> {
    if (this.waitMs <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((r) => {
      timer = setTimeout(r, this.waitMs);
      timer.unref();
    });
    try {
      await Promise.race([pending.then(() => undefined), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The capabilities a client's first message declares: initialize's, or a 2026-07-28 request's `_meta` envelope. */
export function declaredBy(message: unknown, metaKey: string): Record<string, unknown> | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as { method?: unknown; params?: { capabilities?: unknown; _meta?: Record<string, unknown> } };
  if (typeof m.method !== 'string' || typeof m.params !== 'object' || m.params === null) return undefined;
  const caps = m.method === 'initialize' ? m.params.capabilities : m.params._meta?.[metaKey];
  return typeof caps === 'object' && caps !== null ? (caps as Record<string, unknown>) : undefined;
}
