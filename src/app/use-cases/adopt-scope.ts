/**
 * `adopt <client> --scope-from-use`: the working directory's project scope read from the usage store (the file, or
 * PostgreSQL, as `store scope` reads it) and turned into the filter the switch writes on the entry it adds
 * (core/adopt/scope-filter.ts). No scope: ADOPT_NO_SCOPE, before anything is written.
 */
import { resolve } from 'node:path';
import { scopeFilter, SCOPE_FILTER_KEY, type ScopeFilter } from '../../core/adopt/scope-filter.js';
import { clientLabel } from '../../core/config/clients.js';
import { toolHiddenBy, visibilityRules } from '../../core/config/tool-filter.js';
import { deriveScopes, projectKey } from '../../core/session/scope.js';
import type { ClientId, ServerDefinition, SmartConfig } from '../../core/types.js';
import { SmartError } from '../../process/errors.js';
import type { AppContext } from '../services/context.js';
import { resolvePaths } from '../services/paths.js';
import { chosenStore, openUsageStore } from '../services/store.js';

export interface AdoptScope extends ScopeFilter {
  /** The store read (URL credentials redacted). */
  store: string;
  /** The project's key in the store (`store scope` shows the same). */
  project: string;
  /** The client's key the filter is written under (`includeTools`, `enabled_tools`). */
  key: string;
}

/** Refuses --scope-from-use for a client without a per-server tool filter of its own (before any work). */
export function checkScopeClient(client: ClientId): void {
  if (SCOPE_FILTER_KEY[client] !== undefined) return;
  const supported = Object.keys(SCOPE_FILTER_KEY) as ClientId[];
  throw new SmartError('ADOPT_NO_FILTER', {
    client: clientLabel(client),
    name: client,
    supported: supported.map((c) => `${clientLabel(c)} (${SCOPE_FILTER_KEY[c]!})`).join(' and '),
  });
}

/** This project's scope on the adopted servers, as the filter of the entry `entry`. */
export async function readAdoptScope(
  ctx: AppContext,
  opts: {
    client: ClientId;
    config: SmartConfig;
    store: string | undefined;
    adopted: readonly ServerDefinition[];
    entry: string;
  },
): Promise<AdoptScope> {
  const { io } = ctx;
  const paths = resolvePaths(io, false);
  const store = await openUsageStore(chosenStore(opts.store, opts.config.store), {
    cwd: io.cwd,
    env: io.env,
    defaultFile: paths.usageStore,
  });
  try {
    const { doc } = await store.read(Date.now());
    const project = projectKey(resolve(io.cwd));
    const mine = deriveScopes(doc.projects, undefined).find((x) => x.key === project);
    // A tool the client's filter (kept in mcp-smart.config.json) or the serve section hides is not served: it is
    // neither listed nor part of serve's naming.
    const rules = visibilityRules(opts.adopted, opts.config.serve);
    const served = (id: string): boolean => {
      const dot = id.indexOf('.');
      return toolHiddenBy(rules, id.slice(0, dot), id.slice(dot + 1)) === undefined;
    };
    const scoped = (mine?.tools ?? []).filter((t) => t.success > 0 && served(t.id)).map((t) => t.id);
    const names = opts.adopted.map((d) => d.name);
    const filter = scopeFilter(scoped, Object.keys(doc.tools).filter(served), names, opts.entry);
    if (filter.ids.length === 0)
      throw new SmartError('ADOPT_NO_SCOPE', {
        store: store.label,
        project: io.cwd,
        ...(filter.elsewhere.length > 0 ? { elsewhere: filter.elsewhere.join(', ') } : {}),
      });
    return { ...filter, store: store.label, project, key: SCOPE_FILTER_KEY[opts.client]! };
  } finally {
    await store.close();
  }
}
