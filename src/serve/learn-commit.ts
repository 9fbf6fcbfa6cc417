/**
 * Group commit for live learning into PostgreSQL: a forwarded call's answer waits until the batch holding its
 * learned row has committed, so a replica SIGKILLed after answering has lost nothing it answered. Calls made while
 * a batch is being written form the next batch (one transaction for all of them). A store that fails or is slow must
 * never hold answers: a failed write releases its batch's answers at once, an answer waits at most `maxWaitMs`, and
 * while the store is failing answers do not wait at all (learning then catches up in the background, learn.ts).
 */
import type { UsageStore } from '../core/store/types.js';

/** How long calls are gathered before a batch is written when answers wait for it (ms): none beyond the calls of
 * the same turn of the event loop; calls made while a batch is written form the next one. */
export const COMMIT_GATHER_MS = 0;
/**
 * The longest an answer waits for its learned row (ms): past it, the answer goes and the row is written later. As
 * long as serve's connect timeout to the store (learn.ts SERVE_STORE_TIMEOUTS): a write not committed by then is
 * one that fails, and on a loaded machine a commit can take over a second (bench/learn-commit.mjs).
 */
export const COMMIT_MAX_WAIT_MS = 3000;

export interface CommitWaitsOptions {
  maxWaitMs?: number;
  /** Called once when answers stop waiting for the store and once when they wait again. */
  log: (text: string) => void;
  label: string;
}

/** The answers waiting for the batch being gathered (`open`) and what releases each. */
export class CommitWaits {
  private open: (() => void)[] = [];
  /** Answers go without waiting (the store failed); learning catches up in the background. */
  private bypassed = false;
  private slowNoted = false;

  constructor(private readonly opts: CommitWaitsOptions) {}

  /** Whether answers wait now. */
  get waiting(): boolean {
    return !this.bypassed;
  }

  /** Answers waiting for the batch now gathered. */
  get count(): number {
    return this.open.length;
  }

  /** A promise that resolves when the call just added to the gathered batch is committed (or must not be waited for). */
  add(): Promise<void> {
    if (this.bypassed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let done = false;
      const release = (): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        if (!this.slowNoted) {
          this.slowNoted = true;
          this.opts.log(
            `warning: the usage store ${this.opts.label} took over ${this.maxWaitMs} ms to commit a learned call; answering without waiting for it (it is written when the store answers)`,
          );
        }
        release();
      }, this.maxWaitMs);
      timer.unref();
      this.open.push(release);
    });
  }

  /** The waiting answers of the batch about to be written (new calls from now on wait for the next batch). */
  take(): (() => void)[] {
    const batch = this.open;
    this.open = [];
    return batch;
  }

  /** The batch committed: its answers go, and answers wait again if they had stopped. */
  committed(batch: readonly (() => void)[]): void {
    for (const release of batch) release();
    if (this.bypassed) {
      this.bypassed = false;
      this.opts.log(`answers wait again for their learned calls to commit to ${this.opts.label}`);
    }
    this.slowNoted = false;
  }

  /** The batch's write failed: its answers go at once, and the next ones do not wait until a write succeeds. */
  failed(batch: readonly (() => void)[]): void {
    for (const release of batch) release();
    this.releaseAll();
    if (!this.bypassed) {
      this.bypassed = true;
      this.opts.log(
        `warning: answers no longer wait for their learned calls to commit to ${this.opts.label} (a SIGKILL now loses what is not yet written); they wait again once it is reachable`,
      );
    }
  }

  /** The batch's answers and every other waiting one go, answers still waiting from now on (shutdown). */
  release(batch: readonly (() => void)[]): void {
    for (const release of batch) release();
    this.releaseAll();
  }

  private releaseAll(): void {
    for (const release of this.take()) release();
  }

  private get maxWaitMs(): number {
    return this.opts.maxWaitMs ?? COMMIT_MAX_WAIT_MS;
  }
}

/** How often the memory rules one-statement writes left run (ms). */
export const TIDY_MS = 1000;

/**
 * The memory rules (caps, future times) that one-statement writes (store.addNow) leave to store.tidy: due at most
 * once per TIDY_MS after such a write, run in the learner's write turn (`turn`: between two writes, never beside
 * one, so its clamp of future times never meets rows being written), and once more at shutdown.
 */
export class Tidier {
  private timer: NodeJS.Timeout | undefined;
  /** A tidy handed to the write turn and not yet over. */
  private queued = false;
  private running: Promise<void> | undefined;
  /** A one-statement write happened since the last tidy. */
  private due = false;

  constructor(
    private readonly store: UsageStore | undefined,
    private readonly log: (text: string) => void,
    private readonly turn: (tidy: () => Promise<void>) => void,
  ) {}

  /** A one-statement write was made: tidy within TIDY_MS. */
  later(): void {
    this.due = true;
    if (this.timer || this.queued || !this.store?.tidy) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.queued = true;
      this.turn(async () => {
        await this.run();
        this.queued = false;
        if (this.due) this.later();
      });
    }, TIDY_MS);
    this.timer.unref();
  }

  /** Shutdown (the writes over): the tidy due now, after the one running. */
  async final(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    if (this.due) await this.run();
  }

  private run(): Promise<void> {
    this.running = (async () => {
      if (!this.store?.tidy) return;
      this.due = false;
      try {
        for (const w of (await this.store.tidy()).warnings) this.log(`warning: ${w}`);
      } catch {
        // Still due (the store keeps what it must cap); a store that fails is reported by the writes themselves.
        this.due = true;
      }
    })();
    return this.running;
  }
}
