/**
 * Ends the keep-alive HTTP connections fetch left open, so a run exits when its work is done (a 404 from a
 * remote server otherwise kept `dump` alive for seconds). Node keeps its fetch dispatcher under this symbol.
 */
const DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface Destroyable {
  destroy(): Promise<void>;
}

export async function closeHttpConnections(): Promise<void> {
  const dispatcher = (globalThis as Record<symbol, unknown>)[DISPATCHER] as Partial<Destroyable> | undefined;
  if (typeof dispatcher?.destroy !== 'function') return;
  // Called once, as the process ends (bin → main); in-process runs (tests) never reach it.
  await dispatcher.destroy().catch(() => undefined);
}
