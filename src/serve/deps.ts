/** The counter, planner dependencies and usage that `serve` ranks and budgets with. */
import type { CommandContext } from '../app/services/context.js';
import { resolvePaths } from '../app/services/paths.js';
import type { PlanDeps } from '../core/budget/index.js';
import { condenseTool, metaTools } from '../core/condense/index.js';
import { usageForRanking, usageOfDoc, type UsageStoreDoc } from '../core/session/usage-store.js';
import type { UsageStore } from '../core/store/types.js';
import { createTokenCounter, prepareCounter, renderTool, type TokenCounter } from '../core/tokens/index.js';
import { errorText } from '../process/errors.js';
import type { UsageStats } from '../core/types.js';

/**
 * Planner dependencies whose counts come from the on-disk count cache: the tokenizer (about 0.1 s to load)
 * is loaded only when a text is not cached. A miss counts 0 and is remembered; the caller prepares the
 * misses and builds again, so a warm start never loads the tokenizer.
 */
export interface Counting {
  deps: PlanDeps;
  /** Tokens of a text (0 and remembered as a miss when not cached yet, like every count here). */
  countText: (text: string) => number;
  /** Texts counted since the last call that were not cached (and counted as 0). */
  takeMisses: () => string[];
  prepare: (texts: string[]) => Promise<void>;
  flush: () => Promise<void>;
  /**
   * Planner dependencies that never wait for the tokenizer: a text not in the count cache counts as its UTF-8 byte
   * length, an upper bound on its tokens (a BPE token is at least one byte). `missed()`: whether a text was bounded
   * since the last call (the view built with them is then not exact; served-list.ts).
   */
  bounds: { deps: PlanDeps; missed: () => boolean };
}

/** Same counting and condensing as `budget` (json rendering), so what budget says fits is what serve sends. */
export function countingWith(counter: TokenCounter): Counting {
  let misses: string[] = [];
  let bounded = false;
  const bound = (text: string): number => {
    try {
      return counter.count(text);
    } catch {
      bounded = true;
      return Buffer.byteLength(text, 'utf8');
    }
  };
  const count = (text: string): number => {
    try {
      return counter.count(text);
    } catch {
      misses.push(text);
      return 0;
    }
  };
  const deps: PlanDeps = {
    countTool: (tool) => count(renderTool(tool, 'json')),
    condenseTool: (tool, level) => condenseTool(tool, level),
    metaTools: metaTools(),
  };
  return {
    countText: count,
    deps,
    takeMisses: () => {
      const out = misses;
      misses = [];
      return out;
    },
    prepare: (texts) => prepareCounter(counter, texts),
    flush: async () => {
      await counter.flush?.();
    },
    bounds: {
      deps: { ...deps, countTool: (tool) => bound(renderTool(tool, 'json')) },
      missed: () => {
        const out = bounded;
        bounded = false;
        return out;
      },
    },
  };
}

/** serve lets the tokenizer go after this long without a text to count (loading it again takes about 0.1 s). */
const TOKENIZER_IDLE_MS = 30_000;

export async function servingCounts(ctx: CommandContext): Promise<Counting> {
  // The count cache lives in the user cache folder; --no-cache turns it off with the tool-list cache.
  const cacheDir = resolvePaths(ctx.io, ctx.global.cache).activeCacheDir;
  const counter = await createTokenCounter(ctx.global.encoding, {
    cacheDir,
    deferLoad: cacheDir !== undefined,
    releaseAfterMs: TOKENIZER_IDLE_MS,
    now: Date.now,
  });
  return countingWith(counter);
}

/** The store's usage by the rule every ranking reads it; a store that cannot be read is a warning, not a stop. */
export async function loadUsage(
  store: UsageStore,
  now: number,
  log: (text: string) => void,
  opts: { lockTimeoutMs?: number; scope?: (doc: Pick<UsageStoreDoc, 'projects' | 'users'>) => void } = {},
): Promise<UsageStats> {
  try {
    const { doc, warnings } = await store.read(now, opts);
    for (const w of warnings) log(`warning: ${w}`);
    // The per-project and per-user counts the derived scope is made of (serve/scope.ts).
    opts.scope?.({ ...(doc.projects ? { projects: doc.projects } : {}), ...(doc.users ? { users: doc.users } : {}) });
    return usageForRanking(usageOfDoc(doc), now).stats;
  } catch (e) {
    log(`warning: usage store ${store.label} not read (${errorText(e)}); ranking without the usage prior`);
    return { tools: {} };
  }
}
