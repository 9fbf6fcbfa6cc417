/**
 * Live learning: every forwarded call updates the usage store (a file under its lock, or PostgreSQL by atomic
 * increments, beside `replay --learn` and other serve processes), in the background, in batches gathered for
 * GATHER_MS (PostgreSQL: each answer waits for its batch's commit, learn-commit.ts); a store that cannot be reached
 * is retried while serving goes on; a call to a tool that a recent find_tool returned makes "intent → tool" a
 * labelled case, appended to `--record <file>` when asked. Only ids, outcomes, times and redacted intents are kept:
 * arguments and results are never recorded or logged.
 */
import { detectTaskContext } from '../core/discover/usage.js';
import { capIntents, emptyUsage, mergeUsage, recordCalls } from '../core/session/usage.js';
import type { UsageStore } from '../core/store/types.js';
import { errorText, isSmartError } from '../process/errors.js';
import { CaseRecorder } from './learn-record.js';
import { finalWrites } from '../process/signals.js';
import { claimUnwritten, keepUnwritten } from './unwritten.js';
import type { UsageStats } from '../core/types.js';
import { mergeUserUsage, userUsageOf, type UserUsage } from '../core/session/users.js';
import type { ServeScope } from './scope.js';
import { redactFreeText } from '../process/redact.js';
import { COMMIT_GATHER_MS, CommitWaits, Tidier } from './learn-commit.js';
import { FINAL_FLUSH_MS } from './learn-timeouts.js';

export { CLIENT_GONE_FLUSH_MS, FINAL_FLUSH_MS, SERVE_STORE_TIMEOUTS, STARTUP_READ_LOCK_MS } from './learn-timeouts.js';

/** How long a find_tool result counts as the reason for a later call. */
const FIND_MEMORY_MS = 15 * 60_000;
const FINDS_KEPT = 20;
/** Labelled cases kept in memory (the newest; `--record` has them all). */
const CASES_KEPT = 200;

export interface LabelledCase {
  intent: string;
  expected: string[];
}

interface Find {
  intent: string;
  ids: string[];
  at: number;
  /** The tools this find's intent was already credited to: a find labels each tool once, however often it is called. */
  credited: Set<string>;
}

export interface LearnerOptions {
  /** The usage store (a file or PostgreSQL); undefined: do not learn. */
  store?: UsageStore;
  /** --record file for labelled cases. */
  record?: string;
  /** The label learned calls are attributed to in the store. */
  user?: string | undefined;
  /** The project the calls come from (scope.ts): counted per project in the store and in its scope at once. */
  scope?: ServeScope;
  /** Env and header values of every server, never written. */
  secrets: readonly string[];
  now: () => number;
  log: (text: string) => void;
  /** In-memory usage the ranking reads (updated as calls happen). */
  usage: UsageStats;
  /** First and longest wait before writing again to a store that failed (ms). */
  retry?: { firstMs: number; maxMs: number };
  /** How long calls are gathered into one write (ms; default GATHER_MS). */
  gatherMs?: number;
  /** Where calls a shutdown could not write are kept for the next serve (unwritten.ts); undefined: not kept. */
  keepDir?: string;
  /**
   * Answers wait until their learned call is committed (group commit, learn-commit.ts; a PostgreSQL store):
   * `maxWaitMs` bounds each wait. Undefined: answers never wait (a file store, written every GATHER_MS).
   */
  commit?: { maxWaitMs?: number };
}

/** Waits before writing again to a store that could not be reached: 1 s, doubling, at most 30 s. */
const RETRY = { firstMs: 1000, maxMs: 30_000 };
/**
 * How long calls are gathered before one batch is written: a client calling back to back causes one store write
 * per interval, not one per call, so the writes' work (a file rewrite, a transaction's round trips) does not
 * compete with the calls for the CPU. What a SIGKILL can lose is bounded by the same interval — for a file store:
 * a PostgreSQL store's answers wait for their batch's commit (learn-commit.ts), so it loses no call it answered.
 */
const GATHER_MS = 100;

/** A kept batch's per-user counts: as kept per caller, else all under its serve's --user. */
const usersOf = (u: { usage: UsageStats; user?: string | undefined; users?: UserUsage }): UserUsage =>
  u.users ?? (u.user ? userUsageOf(u.usage, u.user) : {});

export class Learner {
  private readonly finds: Find[] = [];
  private queue: Promise<void> = Promise.resolve();
  readonly cases: LabelledCase[] = [];
  /**
   * What was learned and not yet written, summed per tool (recordCalls on one UsageStats), so it is bounded by
   * the catalogue, not by the number of calls: remembered intents keep the store's caps (capIntents). Calls made
   * while a write is in flight are written together by the next one, off every call's path.
   */
  private pending: UsageStats = emptyUsage();
  /** The pending calls' per-user counts, each call under its caller's label (a token's subject, else --user). */
  private pendingUsers: UserUsage = {};
  private pendingCalls = 0;
  private writing: Promise<void> | undefined;
  private gatherTimer: NodeJS.Timeout | undefined;
  private gatherUrgent = false;
  private tidyDue: (() => Promise<void>) | undefined;
  private readonly recorder = new CaseRecorder((t) => this.opts.log(t));
  private retryTimer: NodeJS.Timeout | undefined;
  /** A signal stopped a write: nothing more is started until finalFlush. */
  private halted = false;
  private retryMs: number;
  private failingSince: number | undefined;
  /** During the final flush: when it must be over (Date.now() time); writes then wait for locks only until it. */
  private deadline: number | undefined;

  /** Answers waiting for the batch that holds their call to commit (opts.commit); the memory rules they defer. */
  private readonly waits: CommitWaits | undefined;
  private readonly tidier: Tidier;

  constructor(private readonly opts: LearnerOptions) {
    this.retryMs = (opts.retry ?? RETRY).firstMs;
    this.tidier = new Tidier(opts.store, opts.log, (tidy) => ((this.tidyDue = tidy), this.write()));
    if (opts.commit && opts.store)
      this.waits = new CommitWaits({ ...opts.commit, log: opts.log, label: opts.store.label });
  }

  /** Remembers what find_tool returned for an intent. */
  found(intent: string, ids: string[]): void {
    this.finds.push({ intent, ids, at: this.opts.now(), credited: new Set() });
    if (this.finds.length > FINDS_KEPT) this.finds.shift();
  }

  /** The most recent find whose results held `id`, if recent enough. */
  private reason(id: string): Find | undefined {
    const now = this.opts.now();
    for (let i = this.finds.length - 1; i >= 0; i--) {
      const f = this.finds[i]!;
      if (now - f.at > FIND_MEMORY_MS) break;
      if (f.ids.includes(id)) return f;
    }
    return undefined;
  }

  /**
   * Records one forwarded call. Writes happen in the background; `flush` waits for them. `user`: the label of the
   * call's own caller (a token's subject), instead of serve's --user; it counts in that user's scope at once.
   * Resolves when the call's answer may go: with `commit`, once the batch holding it is committed (or must not be
   * waited for); else at once.
   */
  called(id: string, ok: boolean, latencyMs: number, user?: string): Promise<void> {
    let committed: Promise<void> | undefined;
    const time = this.opts.now();
    const find = this.reason(id);
    const category = find ? detectTaskContext(find.intent).type : 'other';
    const call = [{ id, ok, known: true, latencyMs }];
    // The first successful call of a found tool makes the labelled case; calling it again adds calls, not cases.
    const fresh = ok && find !== undefined && !find.credited.has(id);
    if (fresh) find.credited.add(id);
    const labelled = fresh ? { intent: redactFreeText(find.intent, this.opts.secrets), expected: [id] } : undefined;
    // The intent find_tool was asked for is remembered for the tool called after it (remembered intents).
    recordCalls(this.opts.usage, call, category, time, labelled?.intent);
    this.opts.scope?.called(id, ok, time, user);
    if (labelled) {
      this.cases.push(labelled);
      if (this.cases.length > CASES_KEPT) this.cases.splice(0, this.cases.length - CASES_KEPT);
    }
    if (this.opts.store) {
      recordCalls(this.pending, call, category, time, labelled?.intent);
      capIntents(this.pending);
      const label = user ?? this.opts.user;
      if (label !== undefined) {
        const one = emptyUsage();
        recordCalls(one, call, category, time);
        this.pendingUsers = mergeUserUsage(this.pendingUsers, userUsageOf(one, label));
      }
      this.pendingCalls++;
      if (this.waits && !this.halted) committed = this.waits.add();
      this.kick();
    }
    if (this.opts.record && labelled) {
      this.queue = this.recorder.add(this.opts.record, JSON.stringify(labelled) + '\n');
    }
    return committed ?? Promise.resolve();
  }

  /** Calls learned and not yet in the store (a store that cannot be reached keeps them here). */
  get unwritten(): number {
    return this.pendingCalls;
  }

  /**
   * A write is due: after GATHER_MS (COMMIT_GATHER_MS when answers wait for it), unless one is in flight, gathering
   * or waiting to retry.
   */
  private kick(): void {
    if (this.writing || this.retryTimer || this.halted) return;
    const urgent = (this.waits?.count ?? 0) > 0;
    if (this.gatherTimer && (this.gatherUrgent || !urgent)) return;
    clearTimeout(this.gatherTimer);
    this.gatherUrgent = urgent;
    this.gatherTimer = setTimeout(
      () => {
        this.gatherTimer = undefined;
        this.write();
      },
      urgent ? COMMIT_GATHER_MS : (this.opts.gatherMs ?? GATHER_MS),
    );
    this.gatherTimer.unref();
  }

  /** Writes what is pending now, as one batch; calls made meanwhile are gathered for the next one. */
  private write(): void {
    if (this.writing || this.retryTimer) return;
    // The tidy due takes its turn between writes (never beside one: its clamp would meet the rows being written).
    const tidy = this.halted ? undefined : this.tidyDue;
    this.tidyDue = undefined;
    this.writing = (tidy ?? (() => this.drain()))().finally(() => {
      this.writing = undefined;
      // Calls that came during the write and wait for it are the next batch, written at once (group commit).
      const next = (this.pendingCalls > 0 && (this.waits?.count ?? 0) > 0) || this.tidyDue !== undefined;
      if (next && !this.halted) this.write();
      else if (this.pendingCalls > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    const store = this.opts.store!;
    if (this.pendingCalls === 0) return;
    const batch = this.pending;
    const users = this.pendingUsers;
    const n = this.pendingCalls;
    const waiting = this.waits?.take() ?? [];
    this.pending = emptyUsage();
    this.pendingUsers = {};
    this.pendingCalls = 0;
    try {
      const wait = this.deadline === undefined ? {} : { lockTimeoutMs: Math.max(50, (this.deadline - Date.now()) / 2) };
      const opts = { now: this.opts.now(), users, ...(this.opts.scope ? { project: this.opts.scope.project } : {}) };
      // Answers wait for this batch: one statement, one round trip; the memory rules follow off their path (tidy).
      const single = waiting.length > 0 && this.deadline === undefined && store.addNow !== undefined;
      const { warnings } = single ? await store.addNow!(batch, opts) : await store.add(batch, { ...opts, ...wait });
      if (single) this.tidier.later();
      // Future times clamped, a cap that forgot a large share (store/retention.ts), rows the database refused.
      for (const w of warnings) this.opts.log(`warning: ${w}`);
      this.waits?.committed(waiting);
      if (this.failingSince !== undefined) {
        this.opts.log(`usage store ${store.label} is reachable again; wrote what was learned meanwhile`);
        this.failingSince = undefined;
        this.retryMs = (this.opts.retry ?? RETRY).firstMs;
      }
    } catch (e) {
      // Put the batch back (calls made meanwhile are added to it) and try again later: serving goes on.
      this.pending = mergeUsage(batch, this.pending);
      this.pendingUsers = mergeUserUsage(users, this.pendingUsers);
      capIntents(this.pending);
      this.pendingCalls += n;
      // A signal stopped the write before it began: shutdown's finalFlush writes it, no retry and no warning.
      if (isSmartError(e) && (e.code === 'TERMINATED' || e.code === 'INTERRUPTED')) {
        this.halted = true;
        this.waits?.release(waiting);
        return;
      }
      this.waits?.failed(waiting);
      if (this.failingSince === undefined) {
        this.failingSince = this.opts.now();
        this.opts.log(
          `warning: could not record usage (${errorText(e)}); serving goes on, keeping what is learned in memory and retrying`,
        );
      }
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.write();
      }, this.retryMs);
      this.retryTimer.unref();
      this.retryMs = Math.min(this.retryMs * 2, (this.opts.retry ?? RETRY).maxMs);
    }
  }

  /** Waits for the writes in flight and writes what is gathered. */
  async flush(): Promise<void> {
    await this.queue;
    await this.settle();
  }

  /**
   * Shutdown (a signal, the client gone): writes what is still unwritten, a store that failed included, within
   * `withinMs`. These writes are made even after SIGTERM/SIGINT (they are atomic: whole or absent). What could
   * not be written in time is counted in a warning, never lost silently.
   */
  async finalFlush(withinMs: number = FINAL_FLUSH_MS): Promise<void> {
    this.deadline = Date.now() + withinMs;
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), withinMs)));
    const done = finalWrites(async () => {
      await this.queue;
      await this.settle();
      if (this.retryTimer) {
        clearTimeout(this.retryTimer);
        this.retryTimer = undefined;
      }
      // One more round for what came in meanwhile, was put back by a failed write or stopped by the signal.
      this.halted = false;
      this.write();
      await this.settle();
      await this.queue;
      await this.tidier.final();
    });
    const late = (await Promise.race([done.then(() => 'done' as const), timeUp])) === 'late';
    clearTimeout(timer);
    this.waits?.release([]);
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
    }
    if (this.pendingCalls > 0 && !(await this.keep())) {
      this.opts.log(
        `warning: ${this.pendingCalls} learned call(s) could not be written to the usage store${late ? ` within ${withinMs} ms` : ''}`,
      );
    }
  }

  /** Keeps what is still unwritten for the next serve of this store; false when it cannot be kept. */
  private async keep(): Promise<boolean> {
    const dir = this.opts.keepDir;
    const store = this.opts.store;
    if (!dir || !store) return false;
    try {
      const file = await finalWrites(() =>
        keepUnwritten(dir, store.label, {
          usage: this.pending,
          user: this.opts.user,
          users: this.pendingUsers,
          project: this.opts.scope?.project,
          calls: this.pendingCalls,
        }),
      );
      this.opts.log(
        `warning: ${this.pendingCalls} learned call(s) could not be written to the usage store ${store.label} in time; kept in ${file}, the next serve of this store writes them`,
      );
      this.pending = emptyUsage();
      this.pendingUsers = {};
      this.pendingCalls = 0;
      return true;
    } catch (e) {
      this.opts.log(`warning: could not keep unwritten calls (${errorText(e)})`);
      return false;
    }
  }

  /**
   * Takes the calls earlier serves of this store could not write (unwritten.ts) into this one: its own user's
   * join what is pending; another user's are written on their own (and kept again if that fails).
   */
  async takeUnwritten(): Promise<number> {
    const dir = this.opts.keepDir;
    const store = this.opts.store;
    if (!dir || !store) return 0;
    let calls = 0;
    for (const u of await claimUnwritten(dir)) {
      calls += u.calls;
      if (u.user === this.opts.user && u.project === this.opts.scope?.project) {
        this.pending = mergeUsage(this.pending, u.usage);
        this.pendingUsers = mergeUserUsage(this.pendingUsers, usersOf(u));
        capIntents(this.pending);
        this.pendingCalls += u.calls;
        this.kick();
      } else
        await store
          .add(u.usage, { now: this.opts.now(), users: usersOf(u), ...(u.project ? { project: u.project } : {}) })
          .catch(() => keepUnwritten(dir, store.label, u))
          .catch((e: unknown) => this.opts.log(`warning: ${u.calls} kept call(s) lost (${errorText(e)})`));
    }
    return calls;
  }

  /** Until nothing is gathering or in flight: what is gathered is written now, and each write is waited for. */
  private async settle(): Promise<void> {
    for (;;) {
      if (this.gatherTimer) {
        clearTimeout(this.gatherTimer);
        this.gatherTimer = undefined;
        this.write();
      }
      if (!this.writing) return;
      await this.writing;
    }
  }
}
