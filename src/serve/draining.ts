/**
 * Server sessions retired while calls still run on them. A server started before a client declared a capability
 * (elicitation, sampling, roots) is restarted to declare it; a call running on the old session — for a 2026-07-28
 * client, one held between input_required rounds (bridge.ts) for up to its time bound — finishes there, and the old
 * session closes when its last call ends. New calls go to the new session meanwhile, so an abandoned round does not
 * keep every later client on the old declaration.
 */

interface Closable {
  close(): Promise<void>;
}

export class SessionCalls<S extends Closable> {
  private readonly running = new Map<S, number>();
  private readonly retired = new Set<S>();

  /** A call starts on `session`. */
  begin(session: S): void {
    this.running.set(session, (this.running.get(session) ?? 0) + 1);
  }

  /** A call on `session` ended: a retired session with none left closes. */
  end(session: S): void {
    const left = (this.running.get(session) ?? 1) - 1;
    if (left > 0) return void this.running.set(session, left);
    this.running.delete(session);
    if (this.retired.delete(session)) void session.close().catch(() => undefined);
  }

  /** Calls running on `session` now. */
  count(session: S): number {
    return this.running.get(session) ?? 0;
  }

  /** Retires `session`: closed now when no call runs on it, else when its last call ends. */
  async retire(session: S): Promise<void> {
    if (this.count(session) === 0) return session.close();
    this.retired.add(session);
  }

  /** Sessions retired and still running calls. */
  draining(): S[] {
    return [...this.retired];
  }

  /** Closes every retired session (serve is stopping). */
  async closeAll(): Promise<void> {
    const all = [...this.retired];
    this.retired.clear();
    await Promise.all(all.map((s) => s.close()));
  }
}
