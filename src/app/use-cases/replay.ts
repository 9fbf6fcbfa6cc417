/** The `replay` use case: ranking quality on recorded sessions, usage learning (--learn), weight tuning (--tune). */
import { basename, join, relative } from 'node:path';
import { countOf } from '../../reporters/format.js';
import { writeFileSafe } from '../../process/safe-write.js';
import {
  buildDiscoverIndex,
  detectTaskContext,
  loadShippedWordVectors,
  patternsFromConfig,
  rankTools,
  resolveWeights,
  toolRefsFromSnapshots,
  type HybridWeights,
  type RankOptions,
} from '../../core/discover/index.js';
import { buildCases, type ReplayCase } from '../../core/session/cases.js';
import { createHybridEvaluator } from '../../core/session/fast-hybrid.js';
import { TASK_COMPANIONS, readSessionFiles } from '../../core/session/read.js';
import { compareTokens, replayCaseSteps } from '../../core/session/replay.js';
import type { ReplayLearned, ReplayResult, ReplayStart } from '../../core/session/result.js';
import { tuneWeightSteps } from '../../core/session/tune.js';
import { DAY_MS, learnFromCases } from '../../core/session/usage.js';
import { usageForRanking, usageOfDoc } from '../../core/session/usage-store.js';
import type { UsageStore } from '../../core/store/types.js';
import { countToolTokens, createTokenCounter } from '../../core/tokens/index.js';
import { SmartError } from '../../process/errors.js';
import { computing, runStepsPausing, whileHandlingSignals } from '../../process/signals.js';
import { hasLearnedSession, learnedSessions, unlearnedCases } from '../../core/session/learned.js';
import { deriveScopes, projectsOfCases } from '../../core/session/scope.js';
import { READ_AS, readTextFile } from '../../process/read-file.js';
import { parseConfigText } from '../../core/config/parse.js';
import { isPlainObject } from '../../core/config/key-path.js';
import { editConfigText } from '../../core/adopt/switch-edit.js';
import type { EngineName, UsageStats } from '../../core/types.js';
import type { AppContext } from '../services/context.js';
import { loadSetup, reportUnreachable } from '../services/setup.js';
import { chosenStore, openUsageStore, userLabelFor } from '../services/store.js';
import { createWorkProgress, debugPhase } from '../services/progress.js';

/** MRR looks this deep into each ranking. */
const RANK_DEPTH = 100;
const ENGINE_ORDER: EngineName[] = ['keyword', 'bm25', 'semantic', 'hybrid'];

export interface ReplayOptions {
  /** Recordings: files or folders. */
  paths: string[];
  k: number;
  folds: number;
  seed: number;
  ttlDays: number;
  minRecall?: number;
  tune: boolean;
  /** Store the tuned weights in mcp-smart.config.json (needs `tune`). */
  write: boolean;
  learn: boolean;
  store?: string;
  /** --user: who the learned calls are attributed to. */
  user?: string;
  /** Replay from nothing, not from what the usage store knows. */
  noStore?: boolean;
}

export async function replaySessions(
  ctx: AppContext,
  options: ReplayOptions,
): Promise<{ result: ReplayResult; exitCode: number }> {
  const { io, global } = ctx;
  const { paths: args, k, folds, seed, ttlDays, minRecall } = options;
  const now = Date.now();
  const warn = (w: string): void => io.stderr(`warning: ${w}\n`);

  const read = await readSessionFiles(args, io.cwd);
  if (read.files.length === 0) {
    // Say why each file given was not read (binary, unreadable, not a recording): the user named them.
    const why = [...read.unreadable, ...read.problems]
      .map((p) => `${relative(io.cwd, p.file) || p.file}: ${p.message}`)
      .slice(0, 3);
    throw new SmartError('USAGE', { kind: 'replay-none-found', paths: args.join(', '), why: why.join('; ') });
  }
  const { servers, config, configFile, paths, rules, hidden } = await loadSetup(global, io);
  // The tools serve would offer the model, under its ids, as discover ranks them: a hidden tool is never a hit.
  const refs = toolRefsFromSnapshots(servers, rules);
  const set = buildCases(
    read.sessions,
    refs.map((r) => ({ id: r.id, server: r.server, tool: r.tool.name })),
    Object.entries(hidden ?? {}).flatMap(([server, tools]) =>
      tools.map((tool) => ({ id: `${server}.${tool}`, server, tool })),
    ),
  );
  for (const u of read.unreadable.slice(0, 20)) warn(`${u.file}: ${u.message}`);
  if (read.unreadable.length > 20) warn(`… and ${read.unreadable.length - 20} more unreadable files or folders`);
  for (const p of read.problems.slice(0, 20)) warn(`${p.file}:${p.line}: ${p.message}`);
  if (read.problems.length > 20) warn(`… and ${read.problems.length - 20} more malformed lines or blocks`);
  read.notes.forEach(warn);
  // Cline/Roo task folders hold companion files beside each history: expected, so not worth a warning.
  const strays = read.skipped.filter((f) => !TASK_COMPANIONS.has(basename(f)));
  if (strays.length > 0)
    warn(
      `${countOf(strays.length, 'file')} in the folders ${strays.length === 1 ? 'is' : 'are'} not a recording and ${strays.length === 1 ? 'was' : 'were'} skipped: ` +
        `${strays.slice(0, 5).join(', ')}${strays.length > 5 ? ', …' : ''}`,
    );
  if (set.unknownTools.length > 0) {
    warn(
      `${countOf(set.unknownCalls, 'call')} to ${countOf(set.unknownTools.length, 'tool')} not in the loaded servers, scored as misses and not learned: ` +
        `${set.unknownTools.slice(0, 10).join(', ')}${set.unknownTools.length > 10 ? ', …' : ''}`,
    );
  }
  if (set.hiddenTools.length > 0) {
    warn(
      `${countOf(set.hiddenCalls, 'call')} to ${countOf(set.hiddenTools.length, 'tool')} hidden from the model (client filters, the serve section's disable or load "off"), scored as misses and not learned: ` +
        `${set.hiddenTools.slice(0, 10).join(', ')}${set.hiddenTools.length > 10 ? ', …' : ''}`,
    );
  }

  for (const a of set.ambiguous.slice(0, 10))
    warn(
      `${a.name} could be any of ${a.ids.join(', ')}: scored as a miss and not learned (rename a server so the names differ)`,
    );
  const cwdOf = new Map(read.sessions.flatMap((s) => (s.cwd === undefined ? [] : [[s.id, s.cwd] as const])));
  const vectors = await loadShippedWordVectors();
  const index = buildDiscoverIndex(refs, { weights: config.weights, vectors });
  const base = resolveWeights(config.weights);
  const patterns = patternsFromConfig(config);
  const depth = Math.min(RANK_DEPTH, Math.max(refs.length, 1));
  const ttlMs = ttlDays * DAY_MS;
  const categorize = (intent: string): string => detectTaskContext(intent).type;
  const rankWith =
    (engine: EngineName, weights?: HybridWeights) => (intent: string, usage: RankOptions['usage'], time: number) =>
      rankTools(index, intent, {
        engine,
        k: depth,
        usage,
        now: time,
        patterns,
        ...(weights ? { weights } : {}),
      }).results.map((r) => r.id);
  const engines = (['hybrid', 'keyword', 'bm25', ...(vectors ? ['semantic' as const] : [])] as EngineName[]).map(
    (engine) => ({ engine, rank: rankWith(engine) }),
  );
  // Per-server figures use the server each call resolved to: server names may hold dots ("acme.docs").
  const serverById = new Map(
    set.cases.flatMap((c) =>
      c.calls.flatMap((call) => (call.server === undefined ? [] : [[call.id, call.server] as const])),
    ),
  );
  const serverOf = (id: string): string => serverById.get(id) ?? id.split('.')[0]!;
  // One store for the run: what it knows before the first case, and where --learn writes (a file or PostgreSQL).
  const store =
    options.noStore && !options.learn
      ? undefined
      : await openUsageStore(chosenStore(options.store, config.store), {
          cwd: io.cwd,
          env: io.env,
          defaultFile: paths.usageStore,
        });
  try {
    return await replayWith(store);
  } finally {
    await store?.close();
  }

  async function replayWith(store: UsageStore | undefined): Promise<{ result: ReplayResult; exitCode: number }> {
    const start = options.noStore || !store ? undefined : await startFromStore(store, set.cases, now, ttlDays, warn);
    const initialUsage = start?.usage;
    const scored = set.cases.filter((c) => c.expected.length > 0).length;
    const replaying = createWorkProgress(io, global.format, 'Replaying');
    let replayed = 0;
    const metrics = await computing((pause) => {
      debugPhase(ctx, `replaying ${countOf(set.cases.length, 'case')} with ${countOf(engines.length, 'engine')}`);
      return runStepsPausing(
        replayCaseSteps(set.cases, {
          engines,
          categorize,
          ttlMs,
          topDepth: k,
          serverOf,
          initialUsage,
          onCase: (engine) => {
            if (engine === 0)
              replaying.step(++replayed, scored, `cases ranked by ${countOf(engines.length, 'engine')}`);
          },
        }),
        pause,
      );
    });
    replaying.done();

    const counter = await createTokenCounter(global.encoding, { cacheDir: paths.activeCacheDir });
    const counting = createWorkProgress(io, global.format, 'Counting tokens');
    const tokensOf = await computing(async (pause) => {
      debugPhase(ctx, `counting ${countOf(refs.length, 'tool')}`);
      const tokens = new Map<string, number>();
      for (const [i, r] of refs.entries()) {
        counting.step(i, refs.length, 'tools');
        tokens.set(r.id, countToolTokens(r.tool, counter, 'json', r.server));
        await pause();
      }
      return tokens;
    });
    counting.done();
    await counter.flush?.();

    const result: ReplayResult = {
      cases: metrics.cases,
      sessions: new Set(set.cases.map((c) => c.sessionId)).size,
      files: read.files,
      problems: read.problems,
      turnsWithoutCalls: set.turnsWithoutCalls,
      ...(read.unreadable.length > 0 ? { unreadable: read.unreadable } : {}),
      ...(read.callsWithoutTurn > 0 ? { callsWithoutTurn: read.callsWithoutTurn } : {}),
      unknownTools: set.unknownTools,
      unknownCalls: set.unknownCalls,
      hiddenTools: set.hiddenTools,
      hiddenCalls: set.hiddenCalls,
      tools: refs.length,
      engines: [...metrics.engines].sort(
        (a, b) => ENGINE_ORDER.indexOf(a.engine as EngineName) - ENGINE_ORDER.indexOf(b.engine as EngineName),
      ),
      tokens: compareTokens(metrics.topIds, k, tokensOf),
      misses: metrics.misses,
      ...(start ? { startedFrom: start.info } : {}),
    };
    // The scope derived from use: per project (the directory a recording names), its tools and call counts.
    const projects = projectsOfCases(set.cases, (id) => cwdOf.get(id), now);
    if (Object.keys(projects).length > 0) result.scope = deriveScopes(projects, undefined);

    if (options.tune) {
      if (set.cases.length === 0)
        warn(`no cases to tune on; the weights are unchanged${options.write ? ' and nothing was written' : ''}`);
      const tuning = createWorkProgress(io, global.format, 'Tuning');
      const tuned = await computing((pause) => {
        debugPhase(ctx, `tuning weights on ${countOf(set.cases.length, 'case')}`);
        return runStepsPausing(
          tuneWeightSteps<HybridWeights>({
            cases: set.cases,
            base,
            rank: (intent, w, usage, time) => rankWith('hybrid', w)(intent, usage, time),
            categorize,
            folds,
            seed,
            ttlMs,
            initialUsage,
            makeEvaluator: (items) => createHybridEvaluator(index, items),
            onStep: (done, total, what) => tuning.step(done, total, `search rounds, ${what}`),
          }),
          pause,
        );
      });
      tuning.done();
      if (tuned.folds.length === 0)
        warn('cross-validation needs cases from at least two sessions; held-out MRR is not measured');
      const after = (
        await computing((pause) =>
          runStepsPausing(
            replayCaseSteps(set.cases, {
              engines: [{ engine: 'hybrid', rank: rankWith('hybrid', tuned.weights) }],
              categorize,
              ttlMs,
              initialUsage,
            }),
            pause,
          ),
        )
      ).engines[0]!;
      result.tuned = { ...tuned, seed, hybrid: { recallAt: after.recallAt, mrr: after.mrr } };
      // Into the mcp-smart config that was read (--config or the project's), else a new ./mcp-smart.config.json.
      if (options.write && set.cases.length > 0)
        result.tuned.written = await writeWeights(configFile ?? join(io.cwd, 'mcp-smart.config.json'), tuned.weights);
    }

    if (options.learn)
      result.learned = await whileHandlingSignals(() =>
        learn(ctx, store!, set.cases, {
          now,
          ttlDays,
          categorize,
          user: userLabelFor(options.user, config.user),
          projectOf: (id) => cwdOf.get(id),
        }),
      );

    let exitCode = reportUnreachable(io, servers, 'calls to its tools score as misses');
    if (minRecall !== undefined) {
      const actual = result.engines.find((e) => e.engine === 'hybrid')?.recallAt['5'] ?? 0;
      result.minRecall = { required: minRecall, actual, passed: result.cases > 0 && actual >= minRecall };
      if (!result.minRecall.passed) exitCode = Math.max(exitCode, 1);
    }
    return { result, exitCode };
  }
}

/**
 * What the usage store knows before the first case (the rule every ranking reads a store by, usageForRanking),
 * so that "learn on history, replay what came after" measures what a user gets. Undefined when there is no store.
 */
async function startFromStore(
  store: UsageStore,
  cases: ReplayCase[],
  now: number,
  ttlDays: number,
  warn: (w: string) => void,
): Promise<{ usage: UsageStats; info: ReplayStart } | undefined> {
  const { doc, warnings, missing } = await store.read(now);
  warnings.forEach(warn);
  if (missing) return undefined;
  const { stats } = usageForRanking(usageOfDoc(doc), now, { ttlDays });
  const learned = learnedSessions(doc.sessions);
  const sessions = new Map(cases.map((c) => [c.sessionId, c] as const));
  const already = [...sessions.values()].filter((c) => hasLearnedSession(learned, c)).length;
  if (already > 0)
    warn(
      `the usage store ${store.label} has already learned ${countOf(already, 'replayed session')}: their scores include what was learned from them (--no-store replays from nothing)`,
    );
  const intents = Object.values(stats.intents ?? {}).reduce((n, l) => n + l.length, 0);
  return {
    usage: stats,
    info: { store: store.label, tools: Object.keys(stats.tools).length, intents, alreadyLearnedSessions: already },
  };
}

/**
 * Learns the calls of the cases the store has not learned yet (learned.ts): a call to a tool not loaded is left for
 * a later run, and a session read through another file or path is the same session.
 */
async function learn(
  ctx: AppContext,
  store: UsageStore,
  cases: ReplayCase[],
  opts: {
    now: number;
    ttlDays: number;
    categorize: (intent: string) => string;
    user: string | undefined;
    projectOf: (sessionId: string) => string | undefined;
  },
): Promise<ReplayLearned> {
  let counts = { fresh: 0, already: 0, pending: 0 };
  const { tools, before, warnings } = await store.learn(
    (known) => {
      const { cases: newCases, keys, ...n } = unlearnedCases(cases, known);
      counts = n;
      const projects = projectsOfCases(newCases, opts.projectOf, opts.now);
      return { delta: learnFromCases({ tools: {} }, newCases, opts.categorize, opts.now), sessions: keys, projects };
    },
    { now: opts.now, memory: { ttlDays: opts.ttlDays }, ...(opts.user ? { user: opts.user } : {}) },
  );
  for (const w of warnings) ctx.io.stderr(`warning: ${w}\n`);
  const expired = before - tools;
  if (expired > 0) {
    ctx.io.stderr(
      `warning: ${countOf(expired, 'tool')} last used more than ${opts.ttlDays} days before the newest recording were not kept in the usage store (--ttl-days 0 keeps everything)\n`,
    );
  }
  return {
    store: store.label,
    cases: counts.fresh,
    alreadyLearned: counts.already,
    ...(counts.pending > 0 ? { notLearned: counts.pending } : {}),
    tools,
    expired,
  };
}

/**
 * Read-modify-write of our own config file: only `weights` changes. The file is edited in place (its comments,
 * trailing commas, key order and indentation kept), as every command reads it: a comment used to fail the write.
 */
async function writeWeights(file: string, weights: HybridWeights): Promise<string> {
  const text = (await readTextFile(file, '.', READ_AS.config)) ?? '';
  const doc = text.trim() === '' ? {} : parseConfigText(file, text);
  if (!isPlainObject(doc)) {
    throw new SmartError('FILE_PARSE', { file, kind: 'mcp-smart config', reason: 'the top level is not an object' });
  }
  await writeFileSafe(file, editConfigText(text, doc, [{ kind: 'set', path: ['weights'], value: weights }]));
  return file;
}
