/** The `discover` use case: rank the tools of the selected servers for an intent, or evaluate labelled intents. */
// engine.js, not index.js: the optional model support loads only with --model.
import {
  evaluateRankings,
  evaluationMisses,
  indexCacheKey,
  loadShippedWordVectors,
  patternsFromConfig,
  rankTools,
  snapshotIndexKey,
  toolRefsFromSnapshots,
  type DiscoverIndex,
  type RankOptions,
  type WordVectors,
} from '../../core/discover/engine.js';
import type { DiscoverResult } from '../../core/discover/result.js';
import { countOf } from '../../reporters/format.js';
import { SmartError } from '../../process/errors.js';
import { computing } from '../../process/signals.js';
import { indexThroughCache } from '../services/index-file.js';
import { splitOnePass } from '../services/index-workers.js';
import { createWorkProgress, debugPhase, warnUnknownExpected } from '../services/progress.js';
import type { EngineName } from '../../core/types.js';
import type { AppContext } from '../services/context.js';
import { readLabelledIntents } from '../services/queries.js';
import { capIntent, cutIntentNote } from '../../core/intent-limit.js';
import { loadSetup, reportUnreachable } from '../services/setup.js';
import { readRankingUsage } from '../services/usage.js';

export interface DiscoverOptions {
  /** The intent to rank for; absent when `queries` evaluates a file of labelled intents. */
  intent?: string;
  queries?: string;
  engine: EngineName;
  k: number;
  /** `use-lite` or a model folder (semantic and hybrid only). */
  model?: string;
  /** A usage store other than the default one (hybrid only). */
  store?: string;
}

export async function discoverTools(
  ctx: AppContext,
  options: DiscoverOptions,
): Promise<{ result: DiscoverResult; exitCode: number; afterAnswer: () => Promise<void> }> {
  const { io, global } = ctx;
  const { queries, engine, k, model } = options;
  const warn = (w: string): void => io.stderr(`warning: ${w}\n`);
  const capped = options.intent === undefined ? undefined : capIntent(options.intent);
  if (capped?.cutFrom !== undefined) warn(`${cutIntentNote('the intent', capped.cutFrom)}.`);
  const intent = capped?.text;
  const cases = queries ? await readLabelledIntents(queries, io.cwd, warn) : undefined;

  // The cache writes of a first run (catalogue start cache, index) wait until the answer is printed (afterAnswer).
  const writes: (() => Promise<void>)[] = [];
  const later = (write: () => Promise<void>): void => void writes.push(write);
  // Started together: one file's bytes are made here while the other's are written on the thread pool.
  const afterAnswer = async (): Promise<void> => {
    await Promise.all(writes.splice(0).map((write) => write()));
  };
  const { servers, config, paths, snapshotDigest, lean, rules, hidden } = await loadSetup(global, io, {
    lean: true,
    later,
  });
  if (lean) debugPhase(ctx, 'tool lists read from the catalogue start cache');
  const exitCode = reportUnreachable(io, servers, 'its tools are not ranked');
  // The tools serve would serve, under its ids: what the visibility rule hides is neither ranked nor counted for ids.
  const tools = toolRefsFromSnapshots(servers, rules);
  const now = Date.now();

  let index: DiscoverIndex;
  let embedQuery: ((text: string) => Promise<Float32Array>) | undefined;
  let modelLoaded = (): void => {};
  const needsVectors = engine === 'semantic' || engine === 'hybrid';
  if (model && !needsVectors)
    io.stderr(`warning: --model is ignored: the ${engine} engine uses no vectors (use --engine semantic or hybrid)\n`);
  if (needsVectors && model) {
    const { modelIndex } = await import('../services/model-index.js');
    const progress = createWorkProgress(io, global.format, `Embedding the tools with ${model}`);
    const built = await modelIndex(tools, {
      model,
      cwd: io.cwd,
      cacheDir: paths.activeCacheDir,
      build: { weights: config.weights, keywords: config.keywords },
      progress,
    });
    index = built.index;
    // --queries intents are embedded in one batch up front and not kept (the file may hold thousands); one intent
    // ranked alone is kept, so asking it again needs no model.
    const intents = [...new Set((cases ?? []).map((c) => c.intent))];
    const vectors = intents.length > 0 ? await built.embedIntents(intents, false) : [];
    const known = new Map(intents.map((text, i) => [text, vectors[i]!]));
    embedQuery = async (text) => known.get(text) ?? (await built.embedIntents([text], true))[0]!;
    modelLoaded = () =>
      debugPhase(
        ctx,
        `${model}: index ${built.fromCache ? 'read from the cache' : 'built'}, model ${built.loaded() ? 'loaded' : 'not loaded (every vector cached)'}`,
      );
  } else {
    const vectors = needsVectors ? await shippedVectors(engine) : undefined;
    // The built indexes are cached on disk, keyed by a hash of the tools (of the snapshot files' bytes when they
    // came from --snapshot), weights and vector table; the file is sealed with that key and a hash of its bytes.
    const key = !global.cache
      ? undefined
      : snapshotDigest !== undefined
        ? snapshotIndexKey(snapshotDigest, global.server, vectors, config.weights, hidden)
        : indexCacheKey(tools, vectors, config.weights);
    debugPhase(ctx, `indexing ${countOf(tools.length, 'tool')}`);
    // A terminal sees how far a first run on a big catalogue is (nothing for a short build or a cached index).
    const progress = createWorkProgress(io, global.format, 'Indexing the tools');
    const built = await computing(() =>
      indexThroughCache(
        tools,
        {
          weights: config.weights,
          keywords: config.keywords,
          vectors,
          progress: (done, total) => progress.step(done, total),
          // A big catalogue's fresh build on two threads (the same index).
          onePass: splitOnePass({
            report: (r) =>
              debugPhase(
                ctx,
                `index built on two threads: ${r.workerRanges} ranges by the worker${r.failed ? ' (failed: built here)' : ''}`,
              ),
          }),
        },
        paths.activeCacheDir,
        key,
      ),
    );
    progress.done();
    index = built.index;
    later(built.store);
  }

  const stored =
    engine === 'hybrid'
      ? await readRankingUsage({
          store: options.store,
          defaultStore: paths.usageStore,
          now,
          cwd: io.cwd,
          env: io.env,
          configStore: config.store,
          warn: (w) => io.stderr(`warning: ${w}\n`),
        })
      : undefined;
  // Recency is measured from the store's newest recording, as its memory is (loadUsageStats).
  const base: Omit<RankOptions, 'k'> = {
    engine,
    usage: stored?.usage,
    now: stored?.reference ?? now,
    patterns: patternsFromConfig(config),
  };
  const rank = async (text: string, kk: number): Promise<ReturnType<typeof rankTools>> =>
    rankTools(index, text, { ...base, k: kk, ...(embedQuery ? { queryVector: await embedQuery(text) } : {}) });

  let result: DiscoverResult;
  if (cases) {
    const depth = Math.max(k, 10);
    const ranked = new Map<string, string[]>();
    await computing(async (pause) => {
      debugPhase(ctx, `ranking ${countOf(cases.length, 'labelled intent')}`);
      for (const c of cases) {
        ranked.set(
          c.intent,
          (await rank(c.intent, depth)).results.map((r) => r.id),
        );
        await pause();
      }
    });
    const ks = [...new Set([1, 3, 5, 10, k])].sort((a, b) => a - b);
    const m = evaluateRankings(cases, (q) => ranked.get(q) ?? [], ks);
    // A typo in an expected id scores 0 silently otherwise.
    const { misses, missCount, unknownExpected } = evaluationMisses(cases, ranked, k, new Set(tools.map((t) => t.id)));
    warnUnknownExpected(io, queries!, unknownExpected);
    result = {
      kind: 'evaluation',
      queries: queries!,
      engine,
      k,
      cases: m.cases,
      recallAt: m.recallAt,
      mrr: m.mrr,
      ndcg10: m.ndcg10,
      missCount,
      misses,
      ...(unknownExpected.length > 0 ? { unknownExpected } : {}),
    };
  } else {
    const ranking = await rank(intent!, k);
    result = {
      kind: 'ranking',
      intent: intent!,
      engine,
      k,
      fallback: ranking.fallback,
      results: ranking.results,
      ...(ranking.reading ? { reading: ranking.reading } : {}),
    };
  }
  modelLoaded();
  return { result, exitCode, afterAnswer };
}

/** The shipped table; hybrid still works (bm25 + usage) in an install that dropped it, semantic does not. */
async function shippedVectors(engine: EngineName): Promise<WordVectors | undefined> {
  const vectors = await loadShippedWordVectors();
  if (!vectors && engine === 'semantic') {
    throw new SmartError('MODEL_UNAVAILABLE', { kind: 'vectors-missing' });
  }
  return vectors;
}
