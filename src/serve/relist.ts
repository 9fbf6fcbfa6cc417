/**
 * Re-listing a server after its list_changed. A storm of them costs one re-list in flight and at most one more
 * after it (which sees the latest list), so clients are told of a change a few times, not once each.
 */
import { errorText } from '../process/errors.js';

export interface RelisterOptions {
  /** Lists the server again and rebuilds what is served from it. */
  list: (server: string) => Promise<void>;
  log: (text: string) => void;
}

export class Relister {
  /** Servers being re-listed, and whether another list_changed came in meanwhile. */
  private readonly relisting = new Map<string, { again: boolean }>();

  constructor(private readonly opts: RelisterOptions) {}

  changed(server: string): void {
    const running = this.relisting.get(server);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.relisting.set(server, state);
    void (async () => {
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
}
