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

function refusedBy(filter: IdentityToolFilter, id: string): 'excludeTools' | 'includeTools' | undefined {
  if (anyMatch(filter.excludeTools, id)) return 'excludeTools';
  if (filter.includeTools !== undefined && !anyMatch(filter.includeTools, id)) return 'includeTools';
  return undefined;
}

/**
 * The rule that keeps `identity` from tool `id` ("serve.auth.groups.contractors.excludeTools"), or undefined when it
 * may see and call it. The user's own rule is checked first, then their groups' in the order the token lists them.
 */
export function identityRefusal(
  auth: ServeAuthConfig | undefined,
  identity: Identity | undefined,
  id: string,
): string | undefined {
  if (!auth || !identity) return undefined;
  const own = Object.hasOwn(auth.users ?? {}, identity.subject) ? auth.users![identity.subject] : undefined;
  if (own) {
    const key = refusedBy(own, id);
    if (key) return `serve.auth.users.${identity.subject}.${key}`;
  }
  for (const group of identity.groups) {
    const filter = Object.hasOwn(auth.groups ?? {}, group) ? auth.groups![group] : undefined;
    const key = filter && refusedBy(filter, id);
    if (key) return `serve.auth.groups.${group}.${key}`;
  }
  return undefined;
}
