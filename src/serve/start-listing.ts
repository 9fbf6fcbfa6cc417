/** At start: the servers whose tool lists are not known are listed in the background, then serve says what it serves. */
import { errorText } from '../process/errors.js';
import { countOf } from '../reporters/format.js';
import type { ServeMode } from './served-view.js';
import type { ServeRuntime } from './runtime.js';
import { storeListing, type ServeSetup } from './setup.js';

/** runtime.first.begin: after the lists for the client's declaration, what is still not known is started here. */
export function startListing(
  runtime: ServeRuntime,
  setup: ServeSetup,
  mode: ServeMode,
  log: (text: string) => void,
): () => Promise<void> {
  return () =>
    runtime
      .settled()
      .then(() =>
        runtime.listUnknown(async (name, snap) => {
          const def = setup.definitions.find((d) => d.name === name);
          // Stored under what the server was started declaring: a list a client's capabilities unlocked is never
          // served from the cache to a client that declares nothing.
          const capabilities = runtime.pool.declaredWith(name);
          if (def)
            await storeListing(def, snap, setup.cache, Date.now(), capabilities).catch((e: unknown) =>
              log(`warning: ${errorText(e)}`),
            );
        }),
      )
      .then(() => {
        // Said once the view has exact counts: a first tools/list served with bounds is not waiting for them.
        void runtime.counts().then(() => said(runtime, mode, log));
      });
}

/** What serve serves, once its first listing is done. */
function said(runtime: ServeRuntime, mode: ServeMode, log: (text: string) => void): void {
  const served = runtime.view;
  // Each tool of the servers once: first-class (in tools/list) or behind the meta-tools, never both.
  const first = [...served.servedNameOf.keys()].filter((id) => served.entries.has(id)).length;
  log(
    `${mode} mode: ${countOf(served.entries.size, 'tool')} from ${countOf(runtime.known.size, 'server')}: ${first} served first-class, ` +
      `${served.entries.size - first} behind the meta-tools; tools/list holds ${countOf(served.tools.length, 'tool')} ` +
      `(${countOf(served.tokens, 'token')})${served.deferred.length ? `; deferred: ${served.deferred.join(', ')}` : ''}`,
  );
}
