/**
 * `store init|import|export|forget`: set up a team store, move a file store into PostgreSQL and back (losing
 * nothing: counts, categories, latencies, remembered intents and learned sessions), and forget a tool.
 */
import { learnedSessions } from '../../core/session/learned.js';
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readUsageStore, usageOfDoc, type UsageStoreDoc } from '../../core/session/usage-store.js';
import { deriveScopes, projectKey, type DerivedScope } from '../../core/session/scope.js';
import type { UsageStore } from '../../core/store/types.js';
import { SmartError } from '../../process/errors.js';
import { writeFileSafe } from '../../process/safe-write.js';
import type { AppContext } from '../services/context.js';
import { resolvePaths } from '../services/paths.js';
import { loadDefinitions } from '../services/definitions.js';
import { chosenStore, openUsageStore, userLabelFor } from '../services/store.js';

export type StoreAction = 'init' | 'import' | 'export' | 'forget' | 'scope';

export interface StoreAdminOptions {
  action: StoreAction;
  /** import: the file store to read; export: the file to write. */
  file?: string;
  store?: string;
  force?: boolean;
  /** forget: tool ids … */
  tools?: string[];
  /** … or a user (a name, labelled as the config says, or a label as stored). */
  user?: string;
  /** scope: only this project's (a directory, relative to the working directory). */
  project?: string;
}

export interface StoreAdminResult {
  action: StoreAction;
  /** The store acted on (URL credentials redacted). */
  store: string;
  kind: 'file' | 'postgres';
  file?: string;
  tools: number;
  intents: number;
  sessions: number;
  /** forget --user: the label forgotten. */
  user?: string;
  /** init: the PostgreSQL database did not exist and was created. */
  createdDatabase?: true;
  /** forget: tools removed (--tool), or the forgotten user's tool entries (--user). */
  removed?: number;
  /** scope: the key of the working directory's project (or --project's), and the derived scopes (scope.ts). */
  here?: string;
  scopes?: DerivedScope[];
}

const countIntents = (doc: UsageStoreDoc): number =>
  Object.values(doc.intents ?? {}).reduce((n, list) => n + list.length, 0);

export async function runStoreAdmin(ctx: AppContext, options: StoreAdminOptions): Promise<StoreAdminResult> {
  const { io, global } = ctx;
  const paths = resolvePaths(io, global.cache);
  const { config } = await loadDefinitions(global, io, paths);
  let createdDatabase = false;
  const store = await openUsageStore(chosenStore(options.store, config.store), {
    cwd: io.cwd,
    env: io.env,
    defaultFile: paths.usageStore,
    ...(options.action === 'init' ? { created: (yes: boolean) => (createdDatabase = yes) } : {}),
  });
  try {
    return await act(store);
  } finally {
    await store.close();
  }

  async function act(store: UsageStore): Promise<StoreAdminResult> {
    const now = Date.now();
    const base = { action: options.action, store: store.label, kind: store.kind };
    const summary = (doc: UsageStoreDoc): Pick<StoreAdminResult, 'tools' | 'intents' | 'sessions'> => ({
      tools: Object.keys(doc.tools).length,
      intents: countIntents(doc),
      sessions: learnedSessions(doc.sessions).size,
    });
    switch (options.action) {
      case 'init':
        return {
          ...base,
          ...(createdDatabase ? { createdDatabase: true as const } : {}),
          ...summary((await store.read(now)).doc),
        };
      case 'import': {
        const file = resolve(io.cwd, options.file!);
        // The store itself (`store import ~/.local/share/mcp-smart/usage.json` without --store): every count doubled.
        if (store.kind === 'file' && (await sameFile(file, store.label)))
          throw new SmartError('STORE_REFUSED', {
            file,
            reason: 'it is the store the import goes into, so every call would be counted twice',
            hint: 'name the store to import into with --store <file-or-url>',
          });
        const source = await asArgument(
          readUsageStore(file, now, { keepDamaged: true }),
          'name another usage store file to import',
        );
        if (source.missing)
          throw new SmartError('FILE_NOT_FOUND', { file: options.file!, hint: 'Name the usage store file to import.' });
        for (const w of source.warnings) io.stderr(`warning: ${w}\n`);
        // Added as increments with no memory cap: what the file held arrives whole (a fresh store then equals it).
        const moved = {
          delta: usageOfDoc(source.doc),
          sessions: source.doc.sessions,
          users: source.doc.users ?? {},
          projects: source.doc.projects ?? {},
        };
        const written = await store.learn(() => moved, {
          now,
          memory: { ttlDays: 0 },
        });
        // Times from the future clamped on the way in (store/retention.ts) are said, not hidden.
        for (const w of written.warnings) io.stderr(`warning: ${w}\n`);
        return { ...base, file, ...summary(source.doc) };
      }
      case 'export': {
        const file = resolve(io.cwd, options.file!);
        const { doc } = await store.read(now);
        const existing = await asArgument(
          // --force replaces a damaged store of ours (kept beside it as .corrupt-<time>); without it, left as it is.
          readUsageStore(file, now, { keepDamaged: options.force !== true }),
          'name another file to export to',
        );
        if (!existing.missing && !options.force)
          throw new SmartError('STORE_REFUSED', {
            file,
            reason: 'it already exists',
            hint: 'pass --force to replace it, or name a new file',
          });
        await writeFileSafe(file, JSON.stringify(doc, null, 2) + '\n');
        return { ...base, file, ...summary(doc) };
      }
      case 'scope': {
        // Derived from use: each project's (and user's) tools with their call counts; a path is never shown.
        const { doc } = await store.read(now);
        const here = projectKey(resolve(io.cwd, options.project ?? '.'));
        const all = deriveScopes(doc.projects, doc.users);
        const scopes = options.project ? all.filter((x) => x.key === here) : all;
        return { ...base, ...summary(doc), here, scopes };
      }
      case 'forget': {
        const user = options.user ? (userLabelFor(options.user, config.user) ?? options.user) : undefined;
        if (!user) {
          // A mistyped id forgot nothing without a word ("Forgot 0"): the ids the store has no counts for are named.
          const known = (await store.read(now)).doc.tools;
          const absent = (options.tools ?? []).filter((id) => known[id] === undefined);
          if (absent.length > 0)
            io.stderr(
              `warning: ${store.label} has no counts for ${absent.map((id) => JSON.stringify(id)).join(', ')}: nothing forgotten for ${absent.length === 1 ? 'it' : 'them'}. Tool ids are <server>.<tool>, as discover and serve name them.\n`,
            );
        }
        const removed = user ? await store.forgetUser(user, now) : await store.forgetTools(options.tools ?? [], now);
        return { ...base, ...(user ? { user } : {}), removed, ...summary((await store.read(now)).doc) };
      }
    }
  }
}

/** Whether two paths name one file (through links); false when either is missing. */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [ra, rb] = await Promise.all([realpath(a).catch(() => a), realpath(b).catch(() => b)]);
  return ra === rb;
}

/**
 * A refusal of the import or export <file> says what to do with that argument: the store's own advice, "pass --store
 * with another file", named the wrong thing.
 */
async function asArgument<T>(read: Promise<T>, hint: string): Promise<T> {
  try {
    return await read;
  } catch (e) {
    if (!(e instanceof SmartError) || e.code !== 'STORE_REFUSED') throw e;
    const own = typeof e.details.hint === 'string' ? e.details.hint : undefined;
    const said = own?.includes('pass --store with another file')
      ? own.replace('pass --store with another file', hint)
      : hint;
    throw new SmartError('STORE_REFUSED', { ...e.details, hint: said }, { cause: e });
  }
}
