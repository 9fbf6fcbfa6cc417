/** How long live learning (learn.ts) waits for its store at start-up and at shutdown. */
import { LOCK_STALE_MS } from '../process/file-lock.js';

/** How long shutdown on a signal waits for the last write of what was learned (the signal path exits after 5 s anyway). */
export const FINAL_FLUSH_MS = 3000;
/**
 * How long shutdown waits for it when the client went away (stdin closed): past a file lock's stale age, so a writer
 * killed while holding the store's lock delays this write rather than losing it. A signal still ends it within 5 s.
 */
export const CLIENT_GONE_FLUSH_MS = LOCK_STALE_MS + 5000;
/**
 * A PostgreSQL store's waits in serve: a write waits at most 2 s for a lock (then it is retried later, serving
 * going on), the start-up read of usage 1 s (then serve ranks without it), a connection 3 s.
 */
export const SERVE_STORE_TIMEOUTS = { lockTimeoutMs: 2000, connectTimeoutMs: 3000, statementTimeoutMs: 10_000 };
export const STARTUP_READ_LOCK_MS = 1000;
