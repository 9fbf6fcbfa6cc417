/**
 * Per-user attribution: each learned call may carry a user label, kept as per-user counts per tool beside the
 * team's totals (rankings read the totals; the per-user counts let one user's share be forgotten). The label is
 * the name as configured, or its hash, so a shared store need not hold who anyone is.
 */
import { createHash } from 'node:crypto';
import { dict } from '../dict.js';
import type { UsageStats } from '../types.js';

export interface UserToolUsage {
  success: number;
  failure: number;
  lastUsed: number;
}

/** User label → tool id → that user's counts. */
export type UserUsage = Record<string, Record<string, UserToolUsage>>;

export type UserLabelKind = 'plain' | 'hashed';

/** The label a user's events are stored under: the name itself, or `u-` and 16 hex digits of its SHA-256. */
export function userLabel(name: string, kind: UserLabelKind): string {
  if (kind === 'plain') return name;
  return `u-${createHash('sha256').update(`mcp-smart-user:${name}`).digest('hex').slice(0, 16)}`;
}

/** The per-user counts a usage delta adds for `user`. */
export function userUsageOf(delta: UsageStats, user: string): UserUsage {
  const tools = dict<UserToolUsage>();
  for (const [id, u] of Object.entries(delta.tools))
    tools[id] = { success: u.success, failure: u.failure, lastUsed: u.lastUsed };
  return Object.keys(tools).length > 0 ? { [user]: tools } : {};
}

/** `base` plus `add` (counts summed, last use the later); a new object. */
export function mergeUserUsage(base: UserUsage | undefined, add: UserUsage): UserUsage {
  const out = dict<Record<string, UserToolUsage>>();
  for (const [user, tools] of Object.entries(base ?? {}))
    out[user] = dict(Object.entries(tools).map(([id, u]) => [id, { ...u }]));
  for (const [user, tools] of Object.entries(add)) {
    const mine = (out[user] ??= dict());
    for (const [id, u] of Object.entries(tools)) {
      const had = mine[id];
      mine[id] = had
        ? {
            success: had.success + u.success,
            failure: had.failure + u.failure,
            lastUsed: Math.max(had.lastUsed, u.lastUsed),
          }
        : { ...u };
    }
  }
  return out;
}

/** Only the tools still in the store (the memory cap dropped the rest); users left with none are dropped. */
export function keepUserTools(users: UserUsage | undefined, tools: Record<string, unknown>): UserUsage {
  const out = dict<Record<string, UserToolUsage>>();
  for (const [user, list] of Object.entries(users ?? {})) {
    const kept = Object.entries(list).filter(([id]) => id in tools);
    if (kept.length > 0) out[user] = dict(kept);
  }
  return out;
}

/**
 * Forgets a user: their calls are taken off the tools' success and failure counts and their entries removed.
 * Categories and remembered intents are not per user and stay (forget a tool to remove those). Mutates `stats`.
 */
export function forgetUser(stats: UsageStats, users: UserUsage, user: string): { tools: number } {
  const mine = users[user];
  if (!mine) return { tools: 0 };
  for (const [id, u] of Object.entries(mine)) {
    const t = stats.tools[id];
    if (!t) continue;
    t.success = Math.max(0, t.success - u.success);
    t.failure = Math.max(0, t.failure - u.failure);
  }
  delete users[user];
  return { tools: Object.keys(mine).length };
}

/** Narrows parsed JSON to per-user counts; malformed entries are dropped. */
export function parseUserUsage(value: unknown): UserUsage {
  const out = dict<Record<string, UserToolUsage>>();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  for (const [user, tools] of Object.entries(value as Record<string, unknown>)) {
    if (typeof tools !== 'object' || tools === null || Array.isArray(tools)) continue;
    const list = dict<UserToolUsage>();
    for (const [id, raw] of Object.entries(tools as Record<string, unknown>)) {
      const r = raw as Partial<UserToolUsage> | null;
      if (r && num(r.success) && num(r.failure) && num(r.lastUsed))
        list[id] = { success: r.success, failure: r.failure, lastUsed: r.lastUsed };
    }
    if (Object.keys(list).length > 0) out[user] = list;
  }
  return out;
}
