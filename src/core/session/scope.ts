/**
 * Tools scoped per project, derived from use (issue 38.3): each learned call may carry the project it came from
 * (the client's working directory), kept as per-project counts per tool beside the team's totals, in the same
 * shape as the per-user counts (users.ts). A project is stored under a key, never its path: `p-` and 16 hex digits
 * of the path's SHA-256, so a shared store does not hold where anyone works, and a user finds their own project's
 * key again from its directory. The derived scope of a project (or a user) is the tools its calls used, most used
 * first; find_tool ranks them first for that project (discover/checks/project-scope.ts).
 */
import { createHash } from 'node:crypto';
import { dict } from '../dict.js';
import type { ReplayCase } from './cases.js';
import type { UserUsage } from './users.js';

/** Project key → tool id → that project's counts (the per-user counts' shape). */
export type ProjectUsage = UserUsage;

/** The key a project's calls are stored under: `p-` and 16 hex digits of the SHA-256 of its directory. */
export function projectKey(dir: string): string {
  return `p-${createHash('sha256').update(`mcp-smart-project:${dir}`).digest('hex').slice(0, 16)}`;
}

export const isProjectKey = (s: string): boolean => /^p-[0-9a-f]{16}$/.test(s);

/** One derived scope: a project's (or a user's) tools, most calls first (ties by id), with their call counts. */
export interface DerivedScope {
  key: string;
  kind: 'project' | 'user';
  /** Calls in all (successful and failed). */
  calls: number;
  tools: { id: string; calls: number; success: number }[];
}

/** The derived scope of every project and user in the counts, projects first, each sorted by key. */
export function deriveScopes(projects: ProjectUsage | undefined, users: UserUsage | undefined): DerivedScope[] {
  const of = (kind: DerivedScope['kind'], map: UserUsage | undefined): DerivedScope[] =>
    Object.keys(map ?? {})
      .sort()
      .map((key) => {
        const tools = Object.entries(map![key]!)
          .map(([id, u]) => ({ id, calls: u.success + u.failure, success: u.success }))
          .filter((t) => t.calls > 0)
          .sort((a, b) => b.calls - a.calls || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        return { key, kind, calls: tools.reduce((n, t) => n + t.calls, 0), tools };
      })
      .filter((s) => s.tools.length > 0);
  return [...of('project', projects), ...of('user', users)];
}

/**
 * The scoped prior a ranking reads: tool id → weight in (0, 1], from the successful calls of the project and of
 * the user (added): log-damped and relative to the most used tool, so a tool called once still counts and one
 * called a thousand times does not drown the intent. Empty while the project has no successful call: a store
 * written before per-project counts (per-user counts only) ranks exactly as it did.
 */
export function scopePrior(
  projects: ProjectUsage | undefined,
  users: UserUsage | undefined,
  at: { project?: string | undefined; user?: string | undefined },
): Map<string, number> {
  const sums = new Map<string, number>();
  const add = (list: UserUsage[string] | undefined): void => {
    for (const [id, u] of Object.entries(list ?? {})) if (u.success > 0) sums.set(id, (sums.get(id) ?? 0) + u.success);
  };
  if (at.project) add(projects?.[at.project]);
  if (sums.size === 0) return new Map();
  if (at.user) add(users?.[at.user]);
  const max = Math.max(0, ...sums.values());
  const out = new Map<string, number>();
  if (max <= 0) return out;
  for (const id of [...sums.keys()].sort()) out.set(id, Math.log1p(sums.get(id)!) / Math.log1p(max));
  return out;
}

/**
 * Per-project counts from replayed cases whose session names its directory (`projectOf`: session id → directory):
 * each resolved call counts for that directory's project (a call to no loaded tool, or to one of several, for none).
 */
export function projectsOfCases(
  cases: readonly ReplayCase[],
  projectOf: (sessionId: string) => string | undefined,
  fallbackTime: number,
): ProjectUsage {
  const out = dict<UserUsage[string]>();
  for (const c of cases) {
    const dir = projectOf(c.sessionId);
    if (dir === undefined) continue;
    const tools = (out[projectKey(dir)] ??= dict());
    for (const call of c.calls) {
      if (call.unresolved) continue;
      const u = (tools[call.id] ??= { success: 0, failure: 0, lastUsed: 0 });
      if (call.ok) u.success++;
      else u.failure++;
      u.lastUsed = Math.max(u.lastUsed, c.time > 0 ? c.time : fallbackTime);
    }
  }
  for (const key of Object.keys(out)) if (Object.keys(out[key]!).length === 0) delete out[key];
  return out;
}
