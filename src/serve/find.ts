/**
 * find_tool: ranks the served catalogue (hybrid engine over the entries the view serves, usage and patterns from
 * the config), fuses the rankings of several phrasings of one need, and answers within its token budget, naming
 * the servers that have not started (their tools cannot be found until they do).
 */
import type * as Engine from '../core/discover/engine.js';
import { newestRecording } from '../core/session/usage-store.js';
import type { ServerSnapshot, SmartConfig, UsageStats } from '../core/types.js';
import type { ServedView } from './served-view.js';
import type { Counting } from './deps.js';
import { budgetFindAnswer, findMaxTokens, type BudgetedAnswer, type FindCandidate } from './find-budget.js';
import { findCandidate, refuseUnknownServer, textResult } from './meta.js';
import { MAX_RANKED_QUERIES, readFindArgs } from './find-args.js';
import type { Unstarted } from './start-retry.js';

/** find_tool ranks at most this many phrasings of a need (its intent and `queries`). */
const MAX_PHRASINGS = 1 + MAX_RANKED_QUERIES;

export interface FinderDeps {
  view: () => ServedView;
  known: () => Iterable<ServerSnapshot>;
  config: SmartConfig;
  /** In-memory usage the ranking reads (learning updates it). */
  usage: UsageStats;
  /** The scope derived from use (scope.ts): tool id → weight; absent or empty: rankings as without it. */
  scope?: (subject?: string) => ReadonlyMap<string, number>;
  now: () => number;
  counting: Counting;
  /** Told what each find returned (learning pairs it with the call that follows). */
  found: (intent: string, ids: string[]) => void;
  /** Why a server's tools cannot be called right now, if so. */
  unavailable: (server: string) => string | undefined;
  unstarted: () => readonly Unstarted[];
  /** Servers found but not started (pending approval, switched off), with why. */
  held?: ReadonlyMap<string, string>;
  /** The cache folder discover's index cache is in (undefined with --no-cache): the index is read from it, not built. */
  indexCacheDir: string | undefined;
  /** --debug lines (where the index came from). */
  debug?: (text: string) => void;
}

/** The ranking engine, loaded by the first find (or the warm-up after the first list), not by serve's start. */
let engine: typeof Engine | undefined;

/** How many times one find builds the index again when the list keeps changing during the build. */
const MAX_REBUILDS = 3;

export class ToolFinder {
  private index?: Engine.DiscoverIndex;
  private indexing?: Promise<Engine.DiscoverIndex>;
  /** Counts list changes: a build is kept only when no change came while it ran (it ranks the list it read). */
  private generation = 0;

  constructor(private readonly deps: FinderDeps) {}

  /** The served view changed: the index is built again on the next find, and a build under way is discarded. */
  invalidate(): void {
    this.generation++;
    this.index = undefined;
    this.indexing = undefined;
  }

  /** Builds the ranking index now (otherwise the first find does). */
  async warm(): Promise<void> {
    await this.discoverIndex();
  }

  /** The index of the current list; a build the list changed under is not used (nor kept), but built again. */
  private async discoverIndex(): Promise<Engine.DiscoverIndex> {
    for (let attempt = 0; ; attempt++) {
      if (this.index) return this.index;
      const generation = this.generation;
      this.indexing ??= this.build(generation);
      const index = await this.indexing;
      // A list that changes on every build still gets an answer: find filters its ids by the current view.
      if (generation === this.generation || attempt >= MAX_REBUILDS) return index;
    }
  }

  private async build(generation: number): Promise<Engine.DiscoverIndex> {
    // The index gets the served entries, each tool named so that "<server>.<name>" is its id (a collided id's
    // `#2` included): what find_tool returns is always an id call_tool knows.
    const entries = [...this.deps.view().entries.values()];
    const servers = [...this.deps.known()].map((s) => ({
      ...s,
      tools: entries
        .filter((e) => e.server === s.name)
        .map((e) => ({ ...e.tool, name: e.id.slice(s.name.length + 1) })),
    }));
    const { cachedHybridIndex } = await import('../app/services/rank.js');
    const { index, fromCache, store } = await cachedHybridIndex(servers, this.deps.config, this.deps.indexCacheDir);
    this.deps.debug?.(
      `find_tool index of ${index.tools.length} tools ${fromCache ? 'read from the index cache' : 'built'}`,
    );
    // A built index is written after this answer has gone out (the next start reads it instead of building it); the
    // index cache is keyed by the tools it was built from, so even a build the list changed under is stored rightly.
    if (!fromCache && this.deps.indexCacheDir !== undefined) setImmediate(() => void store().catch(() => undefined));
    if (generation === this.generation) this.index = index;
    return index;
  }

  /**
   * `viewOf`: the caller's view of the shared one once the index is ready (a subset: identity filters). `subject`: the
   * caller's user label when the request carries one (its scope ranks first). `named` hears how many tools the answer
   * names (telemetry's find_tool hit or miss).
   */
  async find(
    args: Record<string, unknown>,
    viewOf: (shared: ServedView) => ServedView = (v) => v,
    subject?: string,
    named?: (n: number) => void,
  ): Promise<ReturnType<typeof textResult>> {
    const read = readFindArgs(args);
    if ('error' in read) return textResult(read.error, true);
    const { intent, k, server } = read;
    const index = await this.discoverIndex();
    const { fuseRankings, patternsFromConfig, rankTools } = (engine ??= await import('../core/discover/engine.js'));
    const view = viewOf(this.deps.view());
    // A server that is not there is said so (as list_tools does), not answered with no results.
    if (server) refuseUnknownServer(view, server, this.deps.unstarted(), this.deps.held);
    // Other phrasings of the same need (`queries`), each ranked, fused by reciprocal rank with the intent's ranking.
    const phrasings = [...new Set([intent, ...read.queries])].slice(0, MAX_PHRASINGS);
    const { usage } = this.deps;
    const scope = this.deps.scope?.(subject);
    const rankOne = (text: string): string[] =>
      rankTools(index, text, {
        engine: 'hybrid',
        k: server ? index.tools.length : phrasings.length > 1 ? Math.max(20, k) : k,
        usage,
        // Recency is measured from the newest recording, as the store's memory is (usageForRanking): a store
        // learned from last month's sessions still ranks by what was used most recently then.
        now: newestRecording(usage) ?? this.deps.now(),
        patterns: patternsFromConfig(this.deps.config),
        ...(scope && scope.size > 0 ? { scope } : {}),
      }).results.map((r) => r.id);
    const ids = fuseRankings(phrasings.map(rankOne)).filter((id) => {
      const e = view.entries.get(id);
      return e !== undefined && (!server || e.server === server);
    });
    const top = ids.slice(0, k);
    this.deps.found(intent, top);
    const candidates = top.flatMap((id) => {
      const e = view.entries.get(id);
      return e ? [findCandidate(e, view, this.deps.unavailable(e.server))] : [];
    });
    named?.(candidates.length);
    const answer = await this.withinBudget(
      candidates,
      findMaxTokens(read.maxTokens, this.deps.config.serve?.findToolMaxTokens),
      this.deps.unstarted(),
    );
    const result = textResult(answer.text);
    // What was cut is said beside the answer (its JSON stays as budgeted).
    if (read.notes.length > 0) result.content.push({ type: 'text', text: `mcp-smart: ${read.notes.join(' ')}` });
    return result;
  }

  /** The answer within `maxTokens`, counted exactly (the tokenizer loads on the first uncached line). */
  private async withinBudget(
    candidates: FindCandidate[],
    maxTokens: number,
    unstarted: readonly Unstarted[],
  ): Promise<BudgetedAnswer> {
    const { counting } = this.deps;
    let answer = budgetFindAnswer(candidates, maxTokens, counting.countText, unstarted);
    let counted = false;
    for (let i = 0; i < 4; i++) {
      const misses = counting.takeMisses();
      if (misses.length === 0) break;
      await counting.prepare(misses);
      counted = true;
      answer = budgetFindAnswer(candidates, maxTokens, counting.countText, unstarted);
    }
    // The lines' new counts go to the count cache, as the view's do: a later start answering the same tools then
    // needs no tokenizer.
    if (counted) void counting.flush().catch(() => undefined);
    return answer;
  }
}
