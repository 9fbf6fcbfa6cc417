/** Usage learning (usage-learning note): per-tool success/failure, last use, task categories, latency; with memory limits. */
import { dict } from '../dict.js';
import { redactFreeText } from '../../process/redact.js';
import type { RememberedIntent, ToolUsage, UsageStats } from '../types.js';
import type { CaseCall, ReplayCase } from './cases.js';

export const DAY_MS = 86_400_000;

export interface ForgetOptions {
  /** Tools last used longer ago than this are dropped; 0 keeps everything. */
  ttlMs: number;
  /** When set, counts halve every `halfLifeMs` of disuse (older evidence weighs less). */
  halfLifeMs?: number;
}

export const emptyUsage = (): UsageStats => ({ tools: dict() });

/** Remembered intents kept per tool: beyond it, the least used (then oldest) intent is forgotten. */
export const MAX_INTENTS_PER_TOOL = 24;
/** Remembered intents kept in a store: beyond it, the oldest are forgotten (usage-store.ts caps on write); it keeps matching them under about 1 ms. */
export const MAX_REMEMBERED_INTENTS = 2000;
/** An intent is remembered up to this many characters (long task texts and pasted payloads are cut). */
export const MAX_INTENT_CHARS = 240;

/** The text an intent is remembered as: secrets redacted, whitespace collapsed, cut; '' when nothing is left. */
export function intentMemoryText(intent: string): string {
  // Control characters (terminal escapes) become spaces: the text is shown by --explain.
  const text = redactFreeText(intent)
    .replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .trim();
  return text.length > MAX_INTENT_CHARS ? text.slice(0, MAX_INTENT_CHARS).trimEnd() : text;
}

/**
 * Remembers that tool `id` was called for `intent` at `time` (deduplicated ignoring case, capped per tool).
 * Remembered intents are copy-on-write: a tool's list and its records are replaced, never changed in place, so a
 * shallow copy of `stats.intents` (cloneUsage) is a snapshot.
 */
export function rememberIntent(stats: UsageStats, id: string, intent: string, time: number, count = 1): void {
  const text = intentMemoryText(intent);
  if (!/[\p{L}\p{N}]/u.test(text)) return;
  const all = (stats.intents ??= dict());
  const list = all[id] ?? [];
  const key = text.toLowerCase();
  const at = list.findIndex((r) => r.text.toLowerCase() === key);
  if (at >= 0) {
    const same = list[at]!;
    all[id] = list.map((r, i) =>
      i === at ? { text: r.text, count: r.count + count, last: Math.max(same.last, time) } : r,
    );
    return;
  }
  const next = [...list, { text, count, last: time }];
  if (next.length > MAX_INTENTS_PER_TOOL) {
    let worst = 0;
    for (let i = 1; i < next.length; i++) if (weaker(next[i]!, next[worst]!)) worst = i;
    next.splice(worst, 1);
  }
  all[id] = next;
}

/**
 * The per-tool cap as a rule on a whole list: the `max` most used intents (ties: the most recent), the ones
 * rememberIntent keeps one at a time. The PostgreSQL store trims by it after a batch of increments.
 */
export function strongestIntents(list: RememberedIntent[], max: number = MAX_INTENTS_PER_TOOL): RememberedIntent[] {
  if (list.length <= max) return list;
  return [...list].sort((a, b) => b.count - a.count || b.last - a.last).slice(0, max);
}

const weaker = (a: RememberedIntent, b: RememberedIntent): boolean =>
  a.count < b.count || (a.count === b.count && a.last < b.last);

/**
 * Records calls made for an intent of `category` at `time`; with `intent`, each tool that served it remembers
 * the intent. Mutates `stats` (the replay loop calls this per case).
 */
export function recordCalls(
  stats: UsageStats,
  calls: CaseCall[],
  category: string,
  time: number,
  intent?: string,
): void {
  if (intent !== undefined) {
    // A tool that only failed was not what the intent needed.
    for (const id of new Set(calls.filter((c) => c.ok).map((c) => c.id))) rememberIntent(stats, id, intent, time);
  }
  for (const c of calls) {
    let u = stats.tools[c.id];
    if (!u) {
      u = { success: 0, failure: 0, lastUsed: 0, categories: {} };
      stats.tools[c.id] = u;
    }
    if (c.ok) u.success++;
    else u.failure++;
    if (time > u.lastUsed) u.lastUsed = time;
    // The note counts categories a tool served successfully; failures teach nothing about fit.
    if (c.ok) u.categories[category] = (u.categories[category] ?? 0) + 1;
    if (c.latencyMs !== undefined) {
      const n = u.latencySamples ?? 0;
      u.avgLatencyMs = ((u.avgLatencyMs ?? 0) * n + c.latencyMs) / (n + 1);
      u.latencySamples = n + 1;
    }
  }
}

/**
 * A copy of `stats` with every case's calls recorded. Time 0 means unknown: such a case counts as of the newest
 * dated case, else `fallbackTime`; "now" beside dated history moved the store's retention reference past all of it,
 * and the cap forgot what the history had taught.
 */
export function learnFromCases(
  stats: UsageStats,
  cases: ReplayCase[],
  categorize: (intent: string) => string,
  fallbackTime: number,
): UsageStats {
  const out = cloneUsage(stats);
  const newest = cases.reduce((n, c) => Math.max(n, c.time), 0);
  const undated = newest > 0 ? newest : fallbackTime;
  for (const c of cases) {
    // A call to no loaded tool, or to one of several, is credited to nobody.
    const calls = c.calls.filter((call) => !call.unresolved);
    if (calls.length > 0) recordCalls(out, calls, categorize(c.intent), c.time > 0 ? c.time : undated, c.intent);
  }
  return out;
}

/** Adds `delta` onto `base` (the store merges a run's learning into what other processes wrote meanwhile). */
export function mergeUsage(base: UsageStats, delta: UsageStats): UsageStats {
  const out = cloneUsage(base);
  for (const [id, d] of Object.entries(delta.tools)) {
    const u = out.tools[id];
    if (!u) {
      out.tools[id] = cloneTool(d);
      continue;
    }
    const n = u.latencySamples ?? (u.avgLatencyMs !== undefined ? 1 : 0);
    const m = d.latencySamples ?? (d.avgLatencyMs !== undefined ? 1 : 0);
    if (n + m > 0) {
      u.avgLatencyMs = ((u.avgLatencyMs ?? 0) * n + (d.avgLatencyMs ?? 0) * m) / (n + m);
      u.latencySamples = n + m;
    }
    u.success += d.success;
    u.failure += d.failure;
    u.lastUsed = Math.max(u.lastUsed, d.lastUsed);
    for (const [cat, k] of Object.entries(d.categories)) u.categories[cat] = (u.categories[cat] ?? 0) + k;
  }
  for (const [id, list] of Object.entries(delta.intents ?? {}))
    for (const r of list) rememberIntent(out, id, r.text, r.last, r.count);
  return out;
}

/**
 * Keeps at most `max` remembered intents over all tools: the most recent ones (ties: the more used). Tools with
 * none left lose their entry. Mutates `stats`.
 */
export function capIntents(stats: UsageStats, max: number = MAX_REMEMBERED_INTENTS): void {
  const all = stats.intents;
  if (!all) return;
  const rows = Object.entries(all).flatMap(([id, list]) => list.map((r) => ({ id, r })));
  if (rows.length <= max) return;
  rows.sort((a, b) => b.r.last - a.r.last || b.r.count - a.r.count);
  const keep = new Set(rows.slice(0, max).map((x) => x.r));
  for (const id of Object.keys(all)) {
    const list = all[id]!.filter((r) => keep.has(r));
    if (list.length > 0) all[id] = list;
    else delete all[id];
  }
}

/** Applies the memory limits at `now`: drops tools unused for longer than the TTL, decays counts by half-life. */
export function forgetUsage(stats: UsageStats, now: number, opts: ForgetOptions): UsageStats {
  const out: UsageStats = { tools: dict() };
  for (const id of Object.keys(stats.tools).sort()) {
    const u = stats.tools[id]!;
    const age = Math.max(0, now - u.lastUsed);
    if (opts.ttlMs > 0 && age > opts.ttlMs) continue;
    const t = cloneTool(u);
    if (opts.halfLifeMs !== undefined && opts.halfLifeMs > 0 && age > 0) {
      const f = 0.5 ** (age / opts.halfLifeMs);
      t.success *= f;
      t.failure *= f;
      for (const cat of Object.keys(t.categories)) t.categories[cat]! *= f;
    }
    out.tools[id] = t;
    const intents = stats.intents?.[id];
    if (intents) (out.intents ??= dict())[id] = intents;
  }
  return out;
}

export function cloneUsage(stats: UsageStats): UsageStats {
  const tools = dict<ToolUsage>();
  for (const [id, u] of Object.entries(stats.tools)) tools[id] = cloneTool(u);
  // Remembered intents are copy-on-write (rememberIntent): copying the map is enough.
  return stats.intents ? { tools, intents: dict(Object.entries(stats.intents)) } : { tools };
}

/** Narrows parsed JSON to remembered intents; malformed entries are dropped and counted, caps applied. */
export function parseRememberedIntents(value: unknown): {
  intents: Record<string, RememberedIntent[]>;
  dropped: number;
} {
  const intents = dict<RememberedIntent[]>();
  let dropped = 0;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { intents, dropped };
  const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  for (const [id, raw] of Object.entries(value as Record<string, unknown>)) {
    if (!Array.isArray(raw)) {
      dropped++;
      continue;
    }
    const list: RememberedIntent[] = [];
    for (const r of raw as Partial<RememberedIntent>[]) {
      if (!r || typeof r !== 'object' || typeof r.text !== 'string' || !num(r.count) || !num(r.last)) {
        dropped++;
        continue;
      }
      const text = intentMemoryText(r.text);
      if (text !== '') list.push({ text, count: r.count, last: r.last });
    }
    const kept = strongestIntents(list);
    if (kept.length > 0) intents[id] = kept;
  }
  return { intents, dropped };
}

function cloneTool(u: ToolUsage): ToolUsage {
  return { ...u, categories: { ...u.categories } };
}

/** Narrows parsed JSON to usage stats; entries that are not usage records are dropped and counted. */
export function parseUsageTools(value: unknown): { tools: Record<string, ToolUsage>; dropped: number } {
  const tools = dict<ToolUsage>();
  let dropped = 0;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { tools, dropped };
  for (const [id, raw] of Object.entries(value as Record<string, unknown>)) {
    const r = raw as Partial<ToolUsage> | null;
    const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
    if (!r || typeof r !== 'object' || !num(r.success) || !num(r.failure) || !num(r.lastUsed)) {
      dropped++;
      continue;
    }
    const categories = dict<number>();
    if (r.categories && typeof r.categories === 'object') {
      for (const [c, k] of Object.entries(r.categories)) if (num(k)) categories[c] = k;
    }
    const u: ToolUsage = { success: r.success, failure: r.failure, lastUsed: r.lastUsed, categories };
    if (num(r.avgLatencyMs)) u.avgLatencyMs = r.avgLatencyMs;
    if (num(r.latencySamples)) u.latencySamples = r.latencySamples;
    tools[id] = u;
  }
  return { tools, dropped };
}
