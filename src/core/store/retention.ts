/**
 * The retention rule every store write applies (issue 41, class 2): one row dated in the future must not make the
 * TTL cap forget everything else. Pure.
 *
 * - Times later than the writer's clock (`now`; for PostgreSQL also the database's `now()`) are clamped to it, and
 *   the writer reports how many it clamped.
 * - The cap is measured from the newest recording, but never from later than `now`: a store learned from last
 *   month's recordings is still not empty today, and a row dated 2999 ages nothing.
 * - One write forgets at most MAX_FORGET_SHARE of the store's tools (the oldest first, at least one); the rest past
 *   the cap stay for later writes, and the write says so.
 */
import type { UsageStats } from '../types.js';
import { dict } from '../dict.js';
import { forgetUsage } from '../session/usage.js';

/** The largest share of a store's tools one write may forget. */
export const MAX_FORGET_SHARE = 0.5;

/** How many of `total` tools one write may forget. */
export const forgetLimit = (total: number): number => Math.max(1, Math.floor(total * MAX_FORGET_SHARE));

/** The time the cap is measured from: the newest recording, clamped to the writer's clock. */
export const retentionReference = (newest: number | undefined, now: number): number =>
  newest === undefined ? now : Math.min(newest, now);

export interface Clamped {
  stats: UsageStats;
  /** Tools and remembered intents whose time was later than `now`. */
  clamped: number;
  /** The latest such time (for the message). */
  latest?: number;
}

/** `stats` with every time later than `now` set to `now` (copies only what changes). */
export function clampFutureTimes(stats: UsageStats, now: number): Clamped {
  let clamped = 0;
  let latest: number | undefined;
  const note = (t: number): void => {
    clamped++;
    if (latest === undefined || t > latest) latest = t;
  };
  const tools = dict(Object.entries(stats.tools));
  for (const [id, u] of Object.entries(tools)) {
    if (!(u.lastUsed > now)) continue;
    note(u.lastUsed);
    tools[id] = { ...u, lastUsed: now };
  }
  let intents = stats.intents;
  if (intents) {
    const copy = dict(Object.entries(intents));
    for (const [id, list] of Object.entries(copy)) {
      if (!list.some((r) => r.last > now)) continue;
      copy[id] = list.map((r) => {
        if (!(r.last > now)) return r;
        note(r.last);
        return { ...r, last: now };
      });
    }
    intents = copy;
  }
  return { stats: intents ? { tools, intents } : { tools }, clamped, ...(latest !== undefined ? { latest } : {}) };
}

export interface RetentionResult {
  kept: UsageStats;
  /** Tools this write forgot. */
  forgotten: number;
  /** Tools past the cap that this write kept because of MAX_FORGET_SHARE. */
  deferred: number;
}

/** The TTL cap (ttlMs 0 keeps all) measured from `reference`, forgetting at most forgetLimit(total) tools. */
export function applyRetention(stats: UsageStats, reference: number, ttlMs: number): RetentionResult {
  const all = Object.keys(stats.tools);
  const capped = forgetUsage(stats, reference, { ttlMs });
  const past = all.filter((id) => !capped.tools[id]);
  const limit = forgetLimit(all.length);
  if (past.length <= limit) return { kept: capped, forgotten: past.length, deferred: 0 };
  // The oldest go first; ties by name, so two writers pick the same ones.
  const order = past.sort((a, b) => stats.tools[a]!.lastUsed - stats.tools[b]!.lastUsed || (a < b ? -1 : 1));
  const keepAlso = order.slice(limit);
  const kept: UsageStats = { tools: dict(Object.entries(capped.tools)) };
  if (capped.intents || stats.intents) kept.intents = dict(Object.entries(capped.intents ?? {}));
  for (const id of keepAlso) {
    kept.tools[id] = stats.tools[id]!;
    const intents = stats.intents?.[id];
    if (intents) kept.intents![id] = intents;
  }
  return { kept, forgotten: limit, deferred: keepAlso.length };
}

/** The warnings a write reports: clamped future times, and a cap that forgot a large share or had to stop. */
export function retentionWarnings(
  c: { clamped: number; latest?: number },
  r: { forgotten: number; deferred: number; total: number },
  now: number,
  clock = "this machine's",
): string[] {
  const out: string[] = [];
  if (c.clamped > 0)
    out.push(
      `${c.clamped} usage time${c.clamped === 1 ? ' was' : 's were'} later than ${clock} clock (up to ${isoDate(c.latest)}); clamped to ${isoDate(now)} so the retention cap is not measured from the future`,
    );
  if (r.deferred > 0)
    out.push(
      `the retention cap forgot ${r.forgotten} of ${r.total} tools in this write and kept ${r.deferred} more that are past it (one write forgets at most ${MAX_FORGET_SHARE * 100}% of a store); check the store's times with \`mcp-smart store export\``,
    );
  else if (r.forgotten > 0 && r.forgotten * 4 > r.total)
    out.push(
      `the retention cap forgot ${r.forgotten} of ${r.total} tools in this write (unused for longer than its TTL)`,
    );
  return out;
}

function isoDate(t: number | undefined): string {
  if (t === undefined || !Number.isFinite(t)) return String(t);
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? String(t) : d.toISOString();
}
