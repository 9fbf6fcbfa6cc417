/** The usage store on disk: locked read-modify-write, atomic replace, corrupt files moved aside. */
import type { Stats } from 'node:fs';
import { lstat, mkdir, readFile, rename, rmdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { withFileLock } from '../../process/file-lock.js';
import { replaceRefusal, writeFileSafe } from '../../process/safe-write.js';
import { stripBom, unreadable } from '../../process/read-file.js';
import { SmartError, errorText } from '../../process/errors.js';
import type { UsageStats } from '../types.js';
import { dict, isObject as isRecord } from '../dict.js';
import { keepUserTools, parseUserUsage, type UserUsage } from './users.js';
import type { ProjectUsage } from './scope.js';
import { DAY_MS, capIntents, forgetUsage, parseRememberedIntents, parseUsageTools } from './usage.js';
import { applyRetention, clampFutureTimes, retentionReference, retentionWarnings } from '../store/retention.js';

export const USAGE_FORMAT = 'mcp-smart/usage@1';

export interface UsageStoreDoc {
  format: typeof USAGE_FORMAT;
  updatedAt: string;
  tools: UsageStats['tools'];
  /** Tool id → the intents it was called for (remembered intents; absent in stores written before them). */
  intents?: NonNullable<UsageStats['intents']>;
  /** Session id → cases already learned from it, so learning the same recordings twice counts nothing twice. */
  sessions: Record<string, number>;
  /** User label → tool id → that user's counts (per-user attribution; absent when no call carried a user). */
  users?: UserUsage;
  /** Project key → tool id → that project's counts (scope.ts; absent when no call carried a project). */
  projects?: ProjectUsage;
}

export interface StoreRead {
  doc: UsageStoreDoc;
  /** Said to the user on stderr: a corrupt file moved aside, dropped entries. */
  warnings: string[];
  /** No file at the path (the document is empty). */
  missing?: true;
  /**
   * A plain usage document: no "format", a `tools` map at the top (or under `stats` or `usage`), as written by
   * hand or by other tools. Every ranking reads it by the same rule; learning never writes over it.
   */
  plain?: true;
}

export interface MemoryOptions {
  /** The cap: tools unused for longer than this before the newest recording are dropped (0 keeps all). */
  ttlDays?: number;
  /** The decay: counts halve every this many days of age before the newest recording (0: no decay). */
  halfLifeDays?: number;
}

/** Store memory, relative to the newest recording: counts halve every 30 days of age … */
export const DEFAULT_STORE_HALF_LIFE_DAYS = 30;
/** … and tools unused for 90 days before it are forgotten (`replay --learn --ttl-days` sets its own cap). */
export const DEFAULT_STORE_TTL_DAYS = 90;

export { usageStorePath } from '../paths.js';

export const emptyStoreDoc = (now: number): UsageStoreDoc => ({
  format: USAGE_FORMAT,
  updatedAt: new Date(now).toISOString(),
  tools: dict(),
  sessions: dict(),
});

/** Largest store read: far above any real store, low enough that a wrong path cannot exhaust memory. */
const MAX_STORE_BYTES = 64 * 1024 * 1024;
const OUR_FORMAT = /^mcp-smart\/usage@(\d+)$/;

/**
 * Checks that `file` can be a usage store before anything reads, locks or moves it: a regular file or
 * nothing yet, in a folder. A folder, a device, a pipe, a parent that is a file → STORE_REFUSED (exit 2).
 */
export async function checkStorePath(file: string): Promise<Stats | undefined> {
  const refuse = (reason: string): never => {
    throw new SmartError('STORE_REFUSED', { file, reason });
  };
  const st = await stat(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    if (e.code === 'ENOTDIR') return refuse('a part of its path is a file, not a folder');
    throw unreadable(file, e);
  });
  if (st?.isDirectory()) refuse('it is a folder, not a usage store file');
  if (st && !st.isFile()) refuse('it is not a regular file (a device, a pipe or a socket)');
  if (st && st.size > MAX_STORE_BYTES) refuse(`it is ${st.size} bytes, larger than any usage store`);
  if (!st) {
    const parent = await stat(dirname(file)).catch(() => undefined);
    if (parent && !parent.isDirectory()) refuse(`its folder ${dirname(file)} is a file`);
  }
  return st;
}

/**
 * Reads the store. Missing → empty. A store of ours that is damaged → moved to `<file>.corrupt-<time>` with a
 * warning (with `keepDamaged`, refused like the rest). Anything else (not a store, a newer format, a link or a
 * special file) → STORE_REFUSED, untouched.
 */
export async function readUsageStore(
  file: string,
  now: number,
  opts: { keepDamaged?: boolean } = {},
): Promise<StoreRead> {
  const st = await checkStorePath(file);
  if (!st) return { doc: emptyStoreDoc(now), warnings: [], missing: true };
  let text: string;
  try {
    // A byte order mark (an editor's) is not damage: the store was moved aside as corrupt and learning restarted.
    text = stripBom(await readFile(file, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { doc: emptyStoreDoc(now), warnings: [], missing: true };
    throw e;
  }
  const warnings: string[] = [];
  let parsed: unknown;
  let reason: string | undefined;
  let plain = false;
  let holder: Record<string, unknown> | undefined;
  try {
    parsed = JSON.parse(text);
    const p = parsed as Partial<UsageStoreDoc> | null;
    if (!p || typeof p !== 'object' || Array.isArray(p)) reason = 'not a JSON object';
    else if (p.format === undefined && (holder = plainUsageHolder(p))) {
      plain = true;
      parsed = holder;
    } else if (p.format !== USAGE_FORMAT) {
      const version = typeof p.format === 'string' ? OUR_FORMAT.exec(p.format)?.[1] : undefined;
      if (version !== undefined && Number(version) > 1)
        throw new SmartError('STORE_REFUSED', {
          file,
          reason: `it was written by a newer mcp-smart (format "${p.format}"; this version reads "${USAGE_FORMAT}")`,
          hint: 'upgrade mcp-smart, or pass --store with another file',
        });
      throw new SmartError('STORE_REFUSED', {
        file,
        reason: `it is not an mcp-smart usage store ("format" is ${JSON.stringify(p.format)})`,
      });
    }
  } catch (e) {
    if (e instanceof SmartError) throw e;
    reason = e instanceof Error ? e.message : String(e);
  }
  if (reason !== undefined) {
    // Only a regular file that we wrote (our writer puts the format first) may be moved aside.
    const ours = /^\s*\{\s*"format"\s*:\s*"mcp-smart\/usage@1"/.test(text);
    const link = await lstat(file).then(
      (l) => l.isSymbolicLink(),
      () => true,
    );
    // keepDamaged: a file named to import or to export to is the user's, never the store learning restarts in.
    if (!ours || link || opts.keepDamaged === true)
      throw new SmartError('STORE_REFUSED', {
        file,
        reason: `it is not an mcp-smart usage store (${reason})${link ? ' and it is a symbolic link' : ''}`,
      });
    const aside = `${file}.corrupt-${now}`;
    await rename(file, aside);
    warnings.push(`usage store ${file} is unreadable (${reason}); moved it to ${aside} and started a new one`);
    return { doc: emptyStoreDoc(now), warnings };
  }
  const p = parsed as Record<string, unknown>;
  const { tools, dropped } = parseUsageTools(p.tools);
  if (dropped > 0)
    warnings.push(`usage store ${file}: ignored ${dropped} malformed tool entr${dropped === 1 ? 'y' : 'ies'}`);
  const memo = parseRememberedIntents(p.intents);
  if (memo.dropped > 0)
    warnings.push(
      `usage store ${file}: ignored ${memo.dropped} malformed remembered intent${memo.dropped === 1 ? '' : 's'}`,
    );
  const sessions = dict<number>();
  if (p.sessions && typeof p.sessions === 'object' && !Array.isArray(p.sessions)) {
    for (const [id, n] of Object.entries(p.sessions as Record<string, unknown>))
      if (typeof n === 'number' && n >= 0) sessions[id] = n;
  }
  const users = parseUserUsage(p.users);
  // A store written before per-project scope has no `projects`: it reads as none (the same shape as `users`).
  const projects = parseUserUsage(p.projects);
  return {
    doc: {
      format: USAGE_FORMAT,
      updatedAt: typeof p.updatedAt === 'string' ? p.updatedAt : new Date(now).toISOString(),
      tools,
      intents: memo.intents,
      sessions,
      ...(Object.keys(users).length > 0 ? { users } : {}),
      ...(Object.keys(projects).length > 0 ? { projects } : {}),
    },
    warnings,
    ...(plain ? { plain: true as const } : {}),
  };
}

/** The object holding a plain usage document's `tools` map: the document itself, or its `stats` or `usage`. */
function plainUsageHolder(doc: Record<string, unknown>): Record<string, unknown> | undefined {
  for (const holder of [doc, doc.stats, doc.usage]) if (isRecord(holder) && isRecord(holder.tools)) return holder;
  return undefined;
}

/**
 * Usage for ranking: the one rule every ranking (discover, budget, serve, replay --store) reads a store by.
 * Memory is measured from the store's newest recording, not from the wall clock (a store learned from last
 * month's recordings is not empty today): tools unused for longer than the TTL before it are dropped (the cap),
 * and the counts of the rest halve every `halfLifeDays` of age before it (the decay). `reference` is that newest
 * time (`now` for an empty store): rank with it as `now` so recency is measured the same way.
 */
export async function loadUsageStats(
  file: string,
  now: number,
  memory: MemoryOptions = {},
): Promise<{ stats: UsageStats; warnings: string[]; reference: number; missing?: true }> {
  const { doc, warnings, missing } = await readUsageStore(file, now);
  return { ...usageForRanking(usageOfDoc(doc), now, memory), warnings, ...(missing ? { missing } : {}) };
}

/** loadUsageStats' rule on usage already read: cap and decay relative to its newest recording. */
export function usageForRanking(
  usage: UsageStats,
  now: number,
  memory: MemoryOptions = {},
): { stats: UsageStats; reference: number } {
  // Never measured from the future: a row dated 2999 would age every other tool out (store/retention.ts).
  const reference = retentionReference(newestRecording(usage), now);
  const forget = memoryToForget({ halfLifeDays: DEFAULT_STORE_HALF_LIFE_DAYS, ...memory });
  return { stats: forgetUsage(usage, reference, forget), reference };
}

/** The time of the newest recorded call in `usage`, or undefined when it holds none. */
export function newestRecording(usage: UsageStats): number | undefined {
  let newest: number | undefined;
  for (const u of Object.values(usage.tools))
    if (u.lastUsed > 0 && (newest === undefined || u.lastUsed > newest)) newest = u.lastUsed;
  return newest;
}

/** The usage a store document holds (tool counts and remembered intents). */
export function usageOfDoc(doc: UsageStoreDoc): UsageStats {
  return doc.intents ? { tools: doc.tools, intents: doc.intents } : { tools: doc.tools };
}

export function memoryToForget(memory: MemoryOptions): { ttlMs: number; halfLifeMs?: number } {
  const ttlDays = memory.ttlDays ?? DEFAULT_STORE_TTL_DAYS;
  return { ttlMs: ttlDays * DAY_MS, ...(memory.halfLifeDays ? { halfLifeMs: memory.halfLifeDays * DAY_MS } : {}) };
}

/** The lock library retries every error for minutes; only "held by another process" deserves a retry. */
async function probeLock(file: string): Promise<void> {
  const lockDir = `${file}.lock`;
  try {
    await mkdir(lockDir);
    await rmdir(lockDir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    throw new SmartError(
      'STORE_REFUSED',
      { file, reason: `no lock file can be created beside it (${code ?? errorText(e)})` },
      { cause: e },
    );
  }
}

/**
 * Refuses (STORE_REFUSED) a store file that learning must not replace: read-only, or another user's. The folder
 * may allow the rename, which would silently swap a file the user protected for a new one.
 */
export async function checkStoreWritable(file: string): Promise<void> {
  const st = await checkStorePath(file);
  const refusal = st ? await replaceRefusal(file, st) : undefined;
  if (refusal)
    throw new SmartError('STORE_REFUSED', {
      file,
      reason: refusal,
      hint: 'make it writable, pass --store with another file, or --no-learn to serve without learning',
    });
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
  // Refuse a wrong path or a store that is not ours before creating folders or a lock beside it.
  const early = await readUsageStore(file, opts.now);
  if (early.plain)
    throw new SmartError('STORE_REFUSED', {
      file,
      reason: 'it is a plain usage document (no "format"), which mcp-smart reads for ranking but never writes over',
      hint: 'learn into another file with --store <file>',
    });
  await checkStoreWritable(file);
  await mkdir(dirname(file), { recursive: true });
  await probeLock(file);
  return withFileLock(file, async () => {
    const read = await readUsageStore(file, opts.now);
    const doc = read.doc;
    // Both reads see the same dropped entries; a file moved aside by the first is missing for the second.
    const warnings = [...new Set([...early.warnings, ...read.warnings])];
    const next = update(doc);
    // Times later than this writer's clock are clamped; the cap applies relative to the newest recording but never
    // from later than now, and forgets a bounded share per write (store/retention.ts). Decay is applied on reading.
    const clamped = clampFutureTimes(usageOfDoc(next), opts.now);
    const reference = retentionReference(newestRecording(clamped.stats), opts.now);
    const ttlMs = memoryToForget(opts.memory ?? {}).ttlMs;
    const total = Object.keys(clamped.stats.tools).length;
    const cut = applyRetention(clamped.stats, reference, ttlMs);
    const kept = cut.kept;
    warnings.push(...retentionWarnings(clamped, { ...cut, total }, opts.now));
    capIntents(kept);
    const users = keepUserTools(next.users, kept.tools);
    const projects = keepUserTools(next.projects, kept.tools);
    const written: UsageStoreDoc = {
      format: USAGE_FORMAT,
      updatedAt: new Date(opts.now).toISOString(),
      tools: kept.tools,
      intents: kept.intents ?? dict(),
      sessions: next.sessions,
      ...(Object.keys(users).length > 0 ? { users } : {}),
      ...(Object.keys(projects).length > 0 ? { projects } : {}),
    };
    await writeFileSafe(file, JSON.stringify(written, null, 2) + '\n');
    return { doc: written, warnings };
  });
}
