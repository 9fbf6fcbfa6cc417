/** The usage store on disk: locked read-modify-write, atomic replace, corrupt files moved aside. */
import { mkdir, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { lock } from 'proper-lockfile';
import { writeFileAtomic } from '../../atomic-write.js';
import type { UsageStats } from '../../types.js';
import { DAY_MS, DEFAULT_USAGE_TTL_DAYS, forgetUsage, parseUsageTools } from './usage.js';

export const USAGE_FORMAT = 'mcp-smart/usage@1';

export interface UsageStoreDoc {
  format: typeof USAGE_FORMAT;
  updatedAt: string;
  tools: UsageStats['tools'];
  /** Session id → cases already learned from it, so learning the same recordings twice counts nothing twice. */
  sessions: Record<string, number>;
}

export interface StoreRead {
  doc: UsageStoreDoc;
  /** Said to the user on stderr: a corrupt file moved aside, dropped entries. */
  warnings: string[];
}

export interface MemoryOptions {
  ttlDays?: number;
  halfLifeDays?: number;
}

export { usageStorePath } from '../paths.js';

export const emptyStoreDoc = (now: number): UsageStoreDoc => ({
  format: USAGE_FORMAT,
  updatedAt: new Date(now).toISOString(),
  tools: {},
  sessions: {},
});

/** Reads the store. Missing → empty. Unparseable → moved to `<file>.corrupt-<time>` with a warning; never throws for content. */
export async function readUsageStore(file: string, now: number): Promise<StoreRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { doc: emptyStoreDoc(now), warnings: [] };
    throw e;
  }
  const warnings: string[] = [];
  let parsed: unknown;
  let reason: string | undefined;
  try {
    parsed = JSON.parse(text);
    const p = parsed as Partial<UsageStoreDoc> | null;
    if (!p || typeof p !== 'object' || Array.isArray(p)) reason = 'not a JSON object';
    else if (p.format !== USAGE_FORMAT) reason = `"format" is ${JSON.stringify(p.format)}, expected "${USAGE_FORMAT}"`;
  } catch (e) {
    reason = e instanceof Error ? e.message : String(e);
  }
  if (reason !== undefined) {
    const aside = `${file}.corrupt-${now}`;
    await rename(file, aside);
    warnings.push(`usage store ${file} is unreadable (${reason}); moved it to ${aside} and started a new one`);
    return { doc: emptyStoreDoc(now), warnings };
  }
  const p = parsed as Record<string, unknown>;
  const { tools, dropped } = parseUsageTools(p.tools);
  if (dropped > 0)
    warnings.push(`usage store ${file}: ignored ${dropped} malformed tool entr${dropped === 1 ? 'y' : 'ies'}`);
  const sessions: Record<string, number> = {};
  if (p.sessions && typeof p.sessions === 'object' && !Array.isArray(p.sessions)) {
    for (const [id, n] of Object.entries(p.sessions as Record<string, unknown>))
      if (typeof n === 'number' && n >= 0) sessions[id] = n;
  }
  return {
    doc: {
      format: USAGE_FORMAT,
      updatedAt: typeof p.updatedAt === 'string' ? p.updatedAt : new Date(now).toISOString(),
      tools,
      sessions,
    },
    warnings,
  };
}

/** Usage for ranking at `now`, with the memory limits applied (default: the note's 7 days). */
export async function loadUsageStats(
  file: string,
  now: number,
  memory: MemoryOptions = {},
): Promise<{ stats: UsageStats; warnings: string[] }> {
  const { doc, warnings } = await readUsageStore(file, now);
  return { stats: forgetUsage({ tools: doc.tools }, now, memoryToForget(memory)), warnings };
}

export function memoryToForget(memory: MemoryOptions): { ttlMs: number; halfLifeMs?: number } {
  const ttlDays = memory.ttlDays ?? DEFAULT_USAGE_TTL_DAYS;
  return { ttlMs: ttlDays * DAY_MS, ...(memory.halfLifeDays ? { halfLifeMs: memory.halfLifeDays * DAY_MS } : {}) };
}

/**
 * Read-modify-write under an exclusive lock (`<file>.lock`), so concurrent processes lose no update.
 * Tools past the TTL are dropped on write. Returns the document written.
 */
export async function updateUsageStore(
  file: string,
  update: (doc: UsageStoreDoc) => UsageStoreDoc,
  opts: { now: number; memory?: MemoryOptions },
): Promise<StoreRead> {
  await mkdir(dirname(file), { recursive: true });
  const release = await lock(file, {
    realpath: false,
    stale: 15_000,
    retries: { retries: 200, factor: 1.3, minTimeout: 5, maxTimeout: 250, randomize: true },
  });
  try {
    const { doc, warnings } = await readUsageStore(file, opts.now);
    const next = update(doc);
    const kept = forgetUsage({ tools: next.tools }, opts.now, { ttlMs: memoryToForget(opts.memory ?? {}).ttlMs });
    const written: UsageStoreDoc = {
      format: USAGE_FORMAT,
      updatedAt: new Date(opts.now).toISOString(),
      tools: kept.tools,
      sessions: next.sessions,
    };
    await writeFileAtomic(file, JSON.stringify(written, null, 2) + '\n');
    return { doc: written, warnings };
  } finally {
    await release();
  }
}
