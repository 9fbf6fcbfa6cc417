/**
 * Re-listing a server after its list_changed. A storm of them costs one re-list in flight and at most one more
 * after it (which sees the latest list), so clients are told of a change a few times, not once each.
 * A call whose server changed its list while answering waits for the re-list (settled), so the client hears
 * serve's list_changed before the answer, in the order the server sent them.
 */
import { errorText } from '../process/errors.js';

/** The longest a call's answer waits for its server's re-list (a slow list must not hold the answer). */
export const RELIST_HOLD_MS = 2_000;

export interface RelisterOptions {
  /** Lists the server again and rebuilds what is served from it. */
  list: (server: string) => Promise<void>;
  log: (text: string) => void;
}

export class Relister {
  /** Servers being re-listed, and whether another list_changed came in meanwhile. */
  private readonly relisting = new Map<string, { again: boolean; done: Promise<void> }>();

  constructor(private readonly opts: RelisterOptions) {}

  changed(server: string): void {
    const running = this.relisting.get(server);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false, done: Promise.resolve() };
    this.relisting.set(server, state);
    state.done = (async () => {
      try {
        do {
          state.again = false;
          await this.opts.list(server);
        } while (state.again);
      } catch (e) {
        this.opts.log(`warning: could not re-list ${server}: ${errorText(e)}`);
      } finally {
        this.relisting.delete(server);
      }
    })();
  }

  /** Resolves once the re-list under way for `server` (if any) is done, or after `capMs` at most. */
  settled(server: string, capMs: number): Promise<void> {
    const running = this.relisting.get(server);
    if (!running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, capMs);
      void running.done.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
