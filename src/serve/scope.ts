/**
 * serve's scope derived from use (issue 38.3): the project it serves is the directory it runs in (a stdio client
 * starts serve in its working directory; 2026-07-28 deprecates roots and carries no project root), stored under a
 * key that hashes the path (core/session/scope.ts). Its learned calls are counted per project beside the totals;
 * find_tool ranks this project's (and this user's) tools first, and they are the load hints' candidates.
 */
import { dict } from '../core/dict.js';
import { mergeUserUsage } from '../core/session/users.js';
import { projectKey, scopePrior, type ProjectUsage } from '../core/session/scope.js';
import type { UsageStoreDoc } from '../core/session/usage-store.js';
import type { UserUsage } from '../core/session/users.js';
import type { UsageStats } from '../core/types.js';

export class ServeScope {
  readonly project: string;
  private readonly projects: ProjectUsage;
  private readonly users: UserUsage;

  /** `doc`: the store as serve read it at start (undefined: none); `user`: the label calls are attributed to. */
  constructor(
    dir: string,
    doc: Pick<UsageStoreDoc, 'projects' | 'users'> | undefined,
    private readonly user: string | undefined,
  ) {
    this.project = projectKey(dir);
    this.projects = mergeUserUsage(doc?.projects, {});
    this.users = mergeUserUsage(doc?.users, {});
  }

  /**
   * A forwarded call: a successful one joins this project's (and its user's) scope at once. `subject`: the caller's
   * user label when the call carries one (an HTTP caller's token subject, issue 38.1), else serve's own user.
   */
  called(id: string, ok: boolean, time: number, subject?: string): void {
    if (!ok) return;
    const add = (map: UserUsage, key: string): void => {
      const tools = (map[key] ??= dict());
      const u = (tools[id] ??= { success: 0, failure: 0, lastUsed: 0 });
      u.success++;
      u.lastUsed = Math.max(u.lastUsed, time);
    };
    add(this.projects, this.project);
    const user = subject ?? this.user;
    if (user) add(this.users, user);
    this.priors.clear();
  }

  /** Priors per user label (undefined: serve's own, without one), made on first use (cleared by every call). */
  private readonly priors = new Map<string | undefined, Map<string, number>>();

  /**
   * Tool id → weight for find_tool (empty: no project data, and rankings are as without scope). `subject`: the
   * caller's user label when the request carries one, else serve's own user.
   */
  weights(subject?: string): Map<string, number> {
    const user = subject ?? this.user;
    let prior = this.priors.get(user);
    if (!prior) this.priors.set(user, (prior = scopePrior(this.projects, this.users, { project: this.project, user })));
    return prior;
  }

  /**
   * The usage load hints are planned from: with a scope, its tools' counts (the project's and the user's) in place
   * of the team's, so this project's most used tools are the ones always loaded; without one (the project has no
   * successful call yet), the team's.
   */
  hintUsage(team: UsageStats): UsageStats {
    if (this.weights().size === 0) return team;
    const mine = mergeUserUsage(
      this.projects[this.project] ? { p: this.projects[this.project]! } : {},
      this.user && this.users[this.user] ? { p: this.users[this.user]! } : {},
    ).p;
    if (!mine || Object.values(mine).every((u) => u.success <= 0)) return team;
    const tools = dict<UsageStats['tools'][string]>();
    for (const [id, u] of Object.entries(mine))
      if (u.success > 0)
        tools[id] = { ...(team.tools[id] ?? { failure: 0, categories: {} }), success: u.success, lastUsed: u.lastUsed };
    return { tools, ...(team.intents ? { intents: team.intents } : {}) };
  }
}
