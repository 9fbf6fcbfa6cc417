/**
 * The prompts and resources one caller is served. They carry no tool id, so `serve.auth` filters reach them through
 * their server: a caller whose rules refuse every tool of a server (`notes.*`, `*`, an `includeTools` list naming
 * none of it) neither lists nor reads, gets, subscribes to or completes anything of that server; one refused some of
 * its tools only still reaches them (identity-filter.ts `identityServerRefusal`).
 */
import { ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import { SmartError } from '../../process/errors.js';
import type { Routes } from '../passthrough.js';
import type { IdentityViews } from './identity-view.js';
import { callerOf, type Caller } from './caller.js';

/** The rule (with its file) refusing a server to the caller, or undefined. */
export type ServerRefusal = (server: string) => string | undefined;

/** What a caller lists: `routes`' prompts, resources and templates less those of servers `refusal` names. */
export function listedFor(
  routes: Routes,
  refusal: ServerRefusal | undefined,
): Pick<Routes, 'prompts' | 'resources' | 'templates'> {
  if (!refusal) return routes;
  const refused = new Map<string, boolean>();
  const shown = (server: string | undefined): boolean => {
    if (server === undefined) return true;
    let no = refused.get(server);
    if (no === undefined) refused.set(server, (no = refusal(server) !== undefined));
    return !no;
  };
  return {
    prompts: routes.prompts.filter((p) => shown(p.server)),
    resources: routes.resources.filter((r) => shown(routes.resourceServer.get(r.uri as string))),
    templates: routes.templates.filter((_, i) => shown(routes.templateMatchers[i]?.server)),
  };
}

/** Per request: the rule hiding a server from its caller, and the check that refuses what such a server owns. */
export function serverScope(identities: IdentityViews): {
  refusalFor: (extra: ServerContext) => ServerRefusal | undefined;
  reachable: (extra: ServerContext, owner: string | undefined, what: string) => string | undefined;
} {
  const refusalFor = (extra: ServerContext): ServerRefusal | undefined => {
    const caller = callerOf(extra.http?.authInfo);
    return caller && ((server) => identities.serverRefusal(caller, server));
  };
  /** `owner` when the caller may reach it; else a JSON-RPC error (invalid params) naming the rule. */
  const reachable = (extra: ServerContext, owner: string | undefined, what: string): string | undefined => {
    const where = owner === undefined ? undefined : refusalFor(extra)?.(owner);
    if (where === undefined) return owner;
    const error = new SmartError('SERVE_SERVER_HIDDEN', { what, server: owner, where });
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `mcp-smart: ${error.message}`);
  };
  return { refusalFor, reachable };
}

/** The caller that opened each client connection (a 2025 session), for what reaches it outside any request. */
const openers = new WeakMap<object, Caller>();

export function rememberOpener(client: object, caller: Caller | undefined): void {
  if (caller) openers.set(client, caller);
}

/**
 * Whether a notification `server` sends outside a call (resources/updated, a log message) may go to `client`: not
 * when the rules of the caller that opened it hide that server. A connection of no known caller (stdio, a fixed
 * token, a 2026-07-28 listen stream) gets them all.
 */
export const reaches = (identities: IdentityViews, client: object, server: string): boolean =>
  identities.serverRefusal(openers.get(client), server) === undefined;
