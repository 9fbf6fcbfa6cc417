/** Usage learning (usage-learning note): per-tool success/failure, last use, task categories, latency; with memory limits. */
import { dict } from '../dict.js';
import type { ToolUsage, UsageStats } from '../../types.js';
import type { CaseCall, ReplayCase } from './cases.js';

export const DAY_MS = 86_400_000;
/** The note's memory: a tool not used for 7 days is forgotten. */
export const DEFAULT_USAGE_TTL_DAYS = 7;

export interface ForgetOptions {
  /** Tools last used longer ago than this are dropped; 0 keeps everything. */
  ttlMs: number;
  /** When set, counts halve every `halfLifeMs` of disuse (older evidence weighs less). */
  halfLifeMs?: number;
}

export const emptyUsage = (): UsageStats => ({ tools: dict() });

/** Records calls made for an intent of `category` at `time`. Mutates `stats` (the replay loop calls this per case). */
export function recordCalls(stats: UsageStats, calls: CaseCall[], category: string, time: number): void {
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

/** A copy of `stats` with every case's calls recorded (time 0 means unknown: `fallbackTime` is used). */
export function learnFromCases(
  stats: UsageStats,
  cases: ReplayCase[],
  categorize: (intent: string) => string,
  fallbackTime: number,
): UsageStats {
  const out = cloneUsage(stats);
  for (const c of cases) recordCalls(out, c.calls, categorize(c.intent), c.time > 0 ? c.time : fallbackTime);
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
  return out;
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
  }
  return out;
}

export function cloneUsage(stats: UsageStats): UsageStats {
  const tools = dict<ToolUsage>();
  for (const [id, u] of Object.entries(stats.tools)) tools[id] = cloneTool(u);
  return { tools };
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
