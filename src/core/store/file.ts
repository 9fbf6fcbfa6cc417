/** The file backend (the default): one JSON document, rewritten under a lock (usage-store.ts). */
import { dict } from '../dict.js';
import { cloneUsage, mergeUsage } from '../session/usage.js';
import { forgetUser, mergeUserUsage, userUsageOf } from '../session/users.js';
import { readUsageStore, updateUsageStore, usageOfDoc, type UsageStoreDoc } from '../session/usage-store.js';
import type { UsageStats } from '../types.js';
import type { LearnPlan, StoreWriteResult, UsageStore } from './types.js';

export class FileUsageStore implements UsageStore {
  readonly kind = 'file';
  constructor(readonly label: string) {}

  read(now: number): ReturnType<UsageStore['read']> {
    return readUsageStore(this.label, now);
  }

  add(delta: UsageStats, opts: Parameters<UsageStore['add']>[1]): Promise<StoreWriteResult> {
    const { users, project, ...rest } = opts;
    const projects = project ? { projects: userUsageOf(delta, project) } : {};
    if (users === undefined) return this.learn(() => ({ delta, sessions: {}, ...projects }), rest);
    const { user: _user, ...noUser } = rest;
    return this.learn(() => ({ delta, sessions: {}, users, ...projects }), noUser);
  }

  async learn(
    plan: (sessions: Readonly<Record<string, number>>) => LearnPlan,
    opts: Parameters<UsageStore['learn']>[1],
  ): Promise<StoreWriteResult> {
    let before = 0;
    const { doc, warnings } = await updateUsageStore(
      this.label,
      (d): UsageStoreDoc => {
        const { delta, sessions, users, projects } = plan(d.sessions);
        const added = mergeUserUsage(users ?? {}, opts.user ? userUsageOf(delta, opts.user) : {});
        const allProjects = mergeUserUsage(d.projects, projects ?? {});
        const merged = mergeUsage(usageOfDoc(d), delta);
        const allSessions = dict(Object.entries(d.sessions));
        for (const [id, n] of Object.entries(sessions)) allSessions[id] = Math.max(n, allSessions[id] ?? 0);
        before = Object.keys(merged.tools).length;
        const allUsers = mergeUserUsage(d.users, added);
        return {
          ...d,
          tools: merged.tools,
          intents: merged.intents ?? dict(),
          sessions: allSessions,
          ...(Object.keys(allUsers).length > 0 ? { users: allUsers } : {}),
          ...(Object.keys(allProjects).length > 0 ? { projects: allProjects } : {}),
        };
      },
      { now: opts.now, ...(opts.memory ? { memory: opts.memory } : {}) },
    );
    return { tools: Object.keys(doc.tools).length, before, warnings };
  }

  async forgetTools(ids: string[], now: number): Promise<number> {
    let removed = 0;
    await updateUsageStore(
      this.label,
      (doc) => {
        const tools = { ...doc.tools };
        const intents = { ...(doc.intents ?? {}) };
        for (const id of ids) {
          if (tools[id]) removed++;
          delete tools[id];
          delete intents[id];
        }
        return { ...doc, tools, intents };
      },
      { now },
    );
    return removed;
  }

  async forgetUser(user: string, now: number): Promise<number> {
    let removed = 0;
    await updateUsageStore(
      this.label,
      (doc) => {
        const stats = cloneUsage(usageOfDoc(doc));
        const users = mergeUserUsage(doc.users, {});
        removed = forgetUser(stats, users, user).tools;
        const { users: _old, ...rest } = doc;
        return { ...rest, tools: stats.tools, ...(Object.keys(users).length > 0 ? { users } : {}) };
      },
      { now },
    );
    return removed;
  }

  async close(): Promise<void> {}
}
