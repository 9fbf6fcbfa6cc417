/**
 * Per-user and per-group tool filters of `serve.auth` (users keyed by token subject, groups by the groups claim):
 * the same allow/deny shape as the clients' own filters (`includeTools`/`excludeTools`), over served tool ids
 * ("server.tool", `*` matching any run of characters). Every rule that applies to the caller must let the tool through;
 * deny wins over allow. Pure.
 */
import type { IdentityToolFilter, ServeAuthConfig } from '../types.js';

export interface Identity {
  subject: string;
  groups: readonly string[];
}

type RuleKey = 'excludeTools' | 'includeTools';

/** A glob over tool ids: `*` any run of characters, everything else literal. */
function globMatch(pattern: string, id: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(id);
}

const anyMatch = (patterns: readonly string[] | undefined, id: string): boolean =>
  patterns?.some((p) => globMatch(p, id)) ?? false;

function refusedBy(filter: IdentityToolFilter, id: string): RuleKey | undefined {
  if (anyMatch(filter.excludeTools, id)) return 'excludeTools';
  if (filter.includeTools !== undefined && !anyMatch(filter.includeTools, id)) return 'includeTools';
  return undefined;
}

/** The first rule applying to `identity` that `refuses`: the user's own, then their groups' in the token's order. */
function firstRefusal(
  auth: ServeAuthConfig | undefined,
  identity: Identity | undefined,
  refuses: (filter: IdentityToolFilter) => RuleKey | undefined,
): string | undefined {
  if (!auth || !identity) return undefined;
  const own = Object.hasOwn(auth.users ?? {}, identity.subject) ? auth.users![identity.subject] : undefined;
  if (own) {
    const key = refuses(own);
    if (key) return `serve.auth.users.${identity.subject}.${key}`;
  }
  for (const group of identity.groups) {
    const filter = Object.hasOwn(auth.groups ?? {}, group) ? auth.groups![group] : undefined;
    const key = filter && refuses(filter);
    if (key) return `serve.auth.groups.${group}.${key}`;
  }
  return undefined;
}

/**
 * The rule that keeps `identity` from tool `id` ("serve.auth.groups.contractors.excludeTools"), or undefined when it
 * may see and call it. The user's own rule is checked first, then their groups' in the order the token lists them.
 */
export const identityRefusal = (
  auth: ServeAuthConfig | undefined,
  identity: Identity | undefined,
  id: string,
): string | undefined => firstRefusal(auth, identity, (filter) => refusedBy(filter, id));

/** Whether glob `pattern` matches some id of `server` ("server.…"). */
function mayMatchServer(pattern: string, server: string): boolean {
  const prefix = `${server}.`;
  const star = pattern.indexOf('*');
  if (star === -1) return pattern.startsWith(prefix);
  const literal = pattern.slice(0, star);
  return prefix.startsWith(literal) || literal.startsWith(prefix);
}

/** Whether glob `pattern` matches every id of `server`: its last `*` takes any tail once it matches "server.". */
const coversServer = (pattern: string, server: string): boolean =>
  pattern.endsWith('*') && globMatch(pattern, `${server}.`);

function refusesServer(filter: IdentityToolFilter, server: string): RuleKey | undefined {
  if (filter.excludeTools?.some((p) => coversServer(p, server))) return 'excludeTools';
  if (filter.includeTools !== undefined && !filter.includeTools.some((p) => mayMatchServer(p, server)))
    return 'includeTools';
  return undefined;
}

/**
 * The rule that keeps `identity` from server `server` as a whole — its prompts and resources, which carry no tool
 * id — or undefined. A server is refused when a rule refuses every tool id it could have: an `excludeTools` pattern
 * covering "server.*" (`notes.*`, `*`), or an `includeTools` list none of whose patterns can name one of its tools.
 * A rule refusing some of its tools only leaves its prompts and resources reachable.
 */
export const identityServerRefusal = (
  auth: ServeAuthConfig | undefined,
  identity: Identity | undefined,
  server: string,
): string | undefined => firstRefusal(auth, identity, (filter) => refusesServer(filter, server));
