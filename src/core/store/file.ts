/** The file backend (the default): one JSON document, rewritten under a lock (usage-store.ts). */
import { dict } from '../dict.js';
import { mergeUsage } from '../session/usage.js';
import { readUsageStore, updateUsageStore, usageOfDoc, type UsageStoreDoc } from '../session/usage-store.js';
import type { UsageStats } from '../../types.js';
import type { LearnPlan, StoreWriteResult, UsageStore } from './types.js';

export class FileUsageStore implements UsageStore {
  readonly kind = 'file';
  constructor(readonly label: string) {}

  read(now: number): ReturnType<UsageStore['read']> {
    return readUsageStore(this.label, now);
  }

  add(delta: UsageStats, opts: Parameters<UsageStore['add']>[1]): Promise<StoreWriteResult> {
    return this.learn(() => ({ delta, sessions: {} }), opts);
  }

  async learn(
    plan: (sessions: Readonly<Record<string, number>>) => LearnPlan,
    opts: Parameters<UsageStore['learn']>[1],
  ): Promise<StoreWriteResult> {
    let before = 0;
    const { doc, warnings } = await updateUsageStore(
      this.label,
      (d): UsageStoreDoc => {
        const { delta, sessions } = plan(d.sessions);
        const merged = mergeUsage(usageOfDoc(d), delta);
        const allSessions = dict(Object.entries(d.sessions));
        for (const [id, n] of Object.entries(sessions)) allSessions[id] = Math.max(n, allSessions[id] ?? 0);
        before = Object.keys(merged.tools).length;
        return { ...d, tools: merged.tools, intents: merged.intents ?? dict(), sessions: allSessions };
      },
      { now: opts.now, ...(opts.memory ? { memory: opts.memory } : {}) },
    );
    return { tools: Object.keys(doc.tools).length, before, warnings };
  }

  async close(): Promise<void> {}
}
