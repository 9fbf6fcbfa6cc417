/** Which usage store a command uses (--store, else the config's `store`, else the default file) and opening it. */
import { resolve } from 'node:path';
import { userLabel } from '../../core/session/users.js';
import { FileUsageStore } from '../../core/store/file.js';
import type { UsageStore } from '../../core/store/types.js';
import type { PostgresStoreOptions } from '../../core/store/postgres.js';
import type { SmartConfig } from '../../core/types.js';
import {
  checkStoreSpec,
  connectionString,
  expandStoreUrl,
  isPostgresUrl,
  redactStoreUrl,
} from '../../core/store/url.js';

export interface StoreSpec {
  /** A file path or a PostgreSQL URL, as given (may hold `${VAR}`). */
  spec: string;
  /** Where it came from, for messages: "--store" or "mcp-smart.config.json: store". */
  where: string;
}

/**
 * The store a command was asked for: the flag, else the config's `store`; undefined: the default file. A URL that is
 * not PostgreSQL's is STORE_URL_INVALID (exit 2), never a file path named after it.
 */
export function chosenStore(flag: string | undefined, configStore: string | undefined): StoreSpec | undefined {
  const chosen: StoreSpec | undefined = flag
    ? { spec: flag, where: '--store' }
    : configStore
      ? { spec: configStore, where: 'mcp-smart.config.json: store' }
      : undefined;
  if (chosen) checkStoreSpec(chosen.spec, chosen.where);
  return chosen;
}

/**
 * Opens the store. A PostgreSQL store is connected and its schema brought up to date here, so an unreachable
 * database is STORE_UNREACHABLE (exit 3) before any work; `lazy` leaves connecting to the first use (serve).
 */
export async function openUsageStore(
  chosen: StoreSpec | undefined,
  opts: {
    cwd: string;
    env: Readonly<Record<string, string | undefined>>;
    defaultFile: string;
    lazy?: boolean;
    /** `store init`: create a PostgreSQL database that does not exist yet (reported through `created`). */
    created?: (yes: boolean) => void;
    /** A PostgreSQL store's waits (serve keeps them short: learning must never hold up serving). */
    timeouts?: PostgresStoreOptions;
  },
): Promise<UsageStore> {
  if (!chosen) return new FileUsageStore(opts.defaultFile);
  if (!isPostgresUrl(chosen.spec)) return new FileUsageStore(resolve(opts.cwd, chosen.spec));
  const url = expandStoreUrl(chosen.spec, opts.env, chosen.where);
  const { PostgresUsageStore } = await import('../../core/store/postgres.js');
  const store = new PostgresUsageStore(connectionString(url, opts.env), redactStoreUrl(chosen.spec), opts.timeouts);
  if (opts.created) opts.created((await store.open({ createDatabase: true })).created);
  else if (!opts.lazy) await store.open();
  return store;
}

/**
 * The label a user's calls are stored under: `--user`, else the config's `user` (a name, or `{name, label}`),
 * hashed unless the config says `label: "plain"`; undefined when neither names a user.
 */
export function userLabelFor(flag: string | undefined, config: SmartConfig['user']): string | undefined {
  const name = flag ?? (typeof config === 'string' ? config : config?.name);
  if (!name) return undefined;
  // A label as stored (`u-` and 16 hex digits) is taken as it is, so `store forget --user <label>` works too.
  if (/^u-[0-9a-f]{16}$/.test(name)) return name;
  const kind = typeof config === 'object' ? (config.label ?? 'hashed') : 'hashed';
  return userLabel(name, kind);
}
