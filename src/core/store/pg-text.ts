/**
 * Text as PostgreSQL can hold it: a `text` value cannot contain U+0000, and a lone UTF-16 surrogate is not UTF-8.
 * Every name and text (tool ids, categories, intents, session ids, user labels) goes through here before it reaches
 * the database, so one hostile tool name or intent cannot fail a whole batch of learning. Both become U+FFFD, the
 * replacement character; two names that differ only there are counted together (the file store keeps them apart).
 */
import type { RememberedIntent, ToolUsage, UsageStats } from '../types.js';
import { dict } from '../dict.js';
import type { UserToolUsage, UserUsage } from '../session/users.js';

const REPLACEMENT = '\uFFFD';
// U+0000, or a surrogate half without its other half.
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text with what PostgreSQL cannot store replaced by U+FFFD. */
export const pgText = (text: string): string => text.replace(UNSAFE, REPLACEMENT);

/** True when the text would change on its way into PostgreSQL. */
export const pgUnsafe = (text: string): boolean => pgText(text) !== text;

/** Usage with every name and text made safe; entries whose names meet on the way are summed. */
export function pgSafeUsage(stats: UsageStats): UsageStats {
  const tools = dict<ToolUsage>();
  for (const [id, u] of Object.entries(stats.tools)) {
    const key = pgText(id);
    const categories = dict<number>();
    for (const [c, n] of Object.entries(u.categories)) categories[pgText(c)] = (categories[pgText(c)] ?? 0) + n;
    const had = tools[key];
    tools[key] = had ? sumTool(had, { ...u, categories }) : { ...u, categories };
  }
  const out: UsageStats = { tools };
  if (stats.intents) {
    const intents = dict<RememberedIntent[]>();
    for (const [id, list] of Object.entries(stats.intents))
      (intents[pgText(id)] ??= []).push(...list.map((r) => ({ ...r, text: pgText(r.text) })));
    out.intents = intents;
  }
  return out;
}

function sumTool(a: ToolUsage, b: ToolUsage): ToolUsage {
  const categories = dict(Object.entries(a.categories));
  for (const [c, n] of Object.entries(b.categories)) categories[c] = (categories[c] ?? 0) + n;
  const out: ToolUsage = {
    success: a.success + b.success,
    failure: a.failure + b.failure,
    lastUsed: Math.max(a.lastUsed, b.lastUsed),
    categories,
  };
  const avg = a.avgLatencyMs ?? b.avgLatencyMs;
  if (avg !== undefined) out.avgLatencyMs = avg;
  const samples = a.latencySamples ?? b.latencySamples;
  if (samples !== undefined) out.latencySamples = samples;
  return out;
}

/** Session ids made safe (the larger count kept where two meet). */
export function pgSafeSessions(sessions: Record<string, number>): Record<string, number> {
  const out = dict<number>();
  for (const [id, n] of Object.entries(sessions)) out[pgText(id)] = Math.max(n, out[pgText(id)] ?? 0);
  return out;
}

/** Per-user counts with labels and tool ids made safe (summed where two meet). */
export function pgSafeUsers(users: UserUsage): UserUsage {
  const out = dict<Record<string, UserToolUsage>>();
  for (const [user, tools] of Object.entries(users)) {
    const mine = (out[pgText(user)] ??= dict());
    for (const [id, u] of Object.entries(tools)) {
      const had = mine[pgText(id)];
      mine[pgText(id)] = had
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
