/**
 * Learned calls a shutdown could not write to a PostgreSQL store in time (a table locked, the database down): kept
 * in a file of the user's data folder, one per stopped serve, and written by the next serve of the same store, so a
 * lock at shutdown delays learning rather than losing it. Each file is claimed by renaming it before it is read, so
 * two serves starting at once never both count it; a claimed file is removed once read (its calls are then
 * pending in that serve, written or kept again by its own shutdown).
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseUsageTools, parseRememberedIntents } from '../core/session/usage.js';
import { writeFileSafe } from '../process/safe-write.js';
import type { UsageStats } from '../core/types.js';
import { parseUserUsage, type UserUsage } from '../core/session/users.js';

const FORMAT = 'mcp-smart/unwritten@1';

export interface Unwritten {
  usage: UsageStats;
  /** The user label the calls are attributed to. */
  user?: string | undefined;
  /** The calls' per-user counts (each caller's own label: a token's subject); absent in files of older serves. */
  users?: UserUsage;
  /** The project key the calls came from (core/session/scope.ts). */
  project?: string | undefined;
  calls: number;
}

/** The folder for a store's unwritten calls: beside the default usage store, keyed by the store's (redacted) label. */
export function unwrittenDir(dataDir: string, storeLabel: string): string {
  const key = createHash('sha256').update(storeLabel).digest('hex').slice(0, 16);
  return join(dataDir, 'unwritten-usage', key);
}

/** Keeps calls for the next serve; returns the file written. */
export async function keepUnwritten(dir: string, storeLabel: string, entry: Unwritten): Promise<string> {
  const file = join(dir, `${Date.now()}-${process.pid}.json`);
  const doc = {
    format: FORMAT,
    store: storeLabel,
    calls: entry.calls,
    user: entry.user,
    ...(entry.users ? { users: entry.users } : {}),
    project: entry.project,
    usage: entry.usage,
  };
  await writeFileSafe(file, JSON.stringify(doc) + '\n', { mode: 0o600 });
  return file;
}

/** Claims and reads every file kept for this store (a file another serve claimed first is skipped). */
export async function claimUnwritten(dir: string): Promise<Unwritten[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: Unwritten[] = [];
  for (const name of names.filter((n) => /^\d+-\d+\.json$/.test(n)).sort()) {
    const claimed = join(dir, `claimed-${process.pid}-${name}`);
    try {
      await rename(join(dir, name), claimed);
    } catch {
      continue;
    }
    try {
      const doc = JSON.parse(await readFile(claimed, 'utf8')) as Record<string, unknown>;
      const usage = doc.usage as Record<string, unknown> | undefined;
      if (doc.format !== FORMAT || !usage) continue;
      const { tools } = parseUsageTools(usage.tools);
      const { intents } = parseRememberedIntents(usage.intents);
      const calls = typeof doc.calls === 'number' ? doc.calls : 0;
      out.push({
        usage: { tools, intents },
        calls,
        ...(typeof doc.user === 'string' ? { user: doc.user } : {}),
        ...(doc.users !== undefined ? { users: parseUserUsage(doc.users) } : {}),
        ...(typeof doc.project === 'string' ? { project: doc.project } : {}),
      });
    } catch {
      // Unreadable: nothing to add.
    } finally {
      await rm(claimed, { force: true });
    }
  }
  return out;
}
