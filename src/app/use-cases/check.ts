/** The `check` use case: compare the current tool definitions with the committed baseline (the CI gate). */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { counterFor } from '../services/counter.js';
import { hybridRanker } from '../services/rank.js';
import { readRankingUsage } from '../services/usage.js';
import { writeFileSafe } from '../../process/safe-write.js';
import {
  DEFAULT_BASELINE,
  DEFAULT_MAX_GROWTH,
  buildBaseline,
  compareBaseline,
  formatGrowthLimit,
  measureServers,
  parseGrowthLimit,
  serializeBaseline,
  type Baseline,
  type BaselineComparison,
  type CheckResult,
  type RetrievalResult,
  type BaselineThresholds,
  type GrowthLimit,
  type MeasuredServer,
  findMissingServers,
} from '../../core/budget/index.js';
import { evaluateRankings, evaluationMisses, toolRefsFromSnapshots } from '../../core/discover/index.js';
import { countToolTokens, renderTool } from '../../core/tokens/index.js';
import { computing, countPausing } from '../../process/signals.js';
import { countOf } from '../../reporters/format.js';
import { debugPhase, warnUnknownExpected } from '../services/progress.js';
import { SmartError } from '../../process/errors.js';
import { own } from '../../core/dict.js';
import type { Encoding, ServerSnapshot, SmartConfig } from '../../core/types.js';
import type { AppContext } from '../services/context.js';
import { optionalString, parseFloatFlag, parseIntFlag } from '../services/flags.js';
import { readLabelledIntents } from '../services/queries.js';
import { missingFailures, updateCommand } from '../services/check-messages.js';
import { loadSetup } from '../services/setup.js';
import { readBaselineFile, readBaselineForUpdate } from '../services/baseline-file.js';
import { shellQuote } from '../services/print-config.js';

function growthFrom(value: string | number | undefined, where: string): GrowthLimit | undefined {
  if (value === undefined) return undefined;
  const g = parseGrowthLimit(value);
  if (!g)
    throw new SmartError('BAD_FLAG', {
      flag: where,
      value: String(value),
      hint: 'Expected a percentage like "5%" or a number of tokens like "500".',
    });
  return g;
}

/** --max-growth, --max and --min-recall as given; resolved against the config and the baseline's own thresholds. */
export interface ThresholdFlags {
  maxGrowth?: string;
  max?: string;
  minRecall?: string;
}

interface Thresholds {
  maxGrowth: GrowthLimit;
  max?: number;
  minRecall?: number;
}

/** Flags over mcp-smart.config.json over the baseline's own thresholds over defaults. */
function resolveThresholds(
  opts: ThresholdFlags,
  config: SmartConfig,
  baseline: BaselineThresholds | undefined,
): Thresholds {
  const maxGrowth =
    growthFrom(optionalString(opts.maxGrowth), '--max-growth') ??
    growthFrom(config.thresholds?.maxGrowth, 'thresholds.maxGrowth') ??
    growthFrom(baseline?.maxGrowth, 'baseline thresholds.maxGrowth') ??
    DEFAULT_MAX_GROWTH;
  const maxFlag = optionalString(opts.max);
  const max =
    maxFlag !== undefined
      ? parseIntFlag('--max', maxFlag, { min: 1, example: '128000' })
      : (config.thresholds?.max ?? baseline?.max);
  const recallFlag = optionalString(opts.minRecall);
  const minRecall =
    recallFlag !== undefined
      ? parseFloatFlag('--min-recall', recallFlag, { min: 0, max: 1, example: '0.8' })
      : (config.thresholds?.minRecall ?? baseline?.minRecall);
  const t: Thresholds = { maxGrowth };
  if (max !== undefined) t.max = max;
  if (minRecall !== undefined) t.minRecall = minRecall;
  return t;
}

function baselineThresholds(t: Thresholds): BaselineThresholds {
  const out: BaselineThresholds = { maxGrowth: formatGrowthLimit(t.maxGrowth) };
  if (t.max !== undefined) out.max = t.max;
  if (t.minRecall !== undefined) out.minRecall = t.minRecall;
  return out;
}

async function measure(ctx: AppContext, servers: ServerSnapshot[], encoding: Encoding): Promise<MeasuredServer[]> {
  const counter = await counterFor(encoding);
  return computing(async (pause) => {
    debugPhase(
      ctx,
      `counting ${countOf(
        servers.reduce((n, s) => n + s.tools.length, 0),
        'tool',
      )}`,
    );
    // Counted ahead with pauses (same texts as countToolTokens renders), so a signal stops a large catalogue.
    const texts = servers.flatMap((s) => (s.status === 'ok' ? s.tools.map((t) => renderTool(t, 'json')) : []));
    await countPausing(counter, texts, pause);
    return measureServers(servers, (tool, server) => countToolTokens(tool, counter, 'json', server));
  });
}

const fmtPct = (n: number): string => `${n > 0 ? '+' : ''}${n.toFixed(1)}%`;

function describe(
  comparison: BaselineComparison,
  baselineFile: string,
  update: string,
): { failures: CheckResult['failures']; warnings: CheckResult['warnings'] } {
  const failures: CheckResult['failures'] = [];
  const top = comparison.grown
    .slice(0, 3)
    .map((c) => `${c.id} ${c.kind === 'added' ? 'added' : ''} +${c.delta}`.replace('  ', ' '))
    .join(', ');
  for (const f of comparison.failures) {
    if (f.code === 'TOTAL_GROWTH') {
      const pct = f.before === 0 ? 100 : (f.delta / f.before) * 100;
      failures.push({
        code: f.code,
        message:
          `tool tokens grew by ${f.delta} (${fmtPct(pct)}), from ${f.before} to ${f.after}; allowed ` +
          `${f.limit}${top ? `. Largest growth: ${top}` : ''}. If intended, run: ${update} and commit ${baselineFile}`,
      });
    } else {
      failures.push({
        code: f.code,
        message: `tool tokens ${f.after} exceed the maximum of ${f.max}${top ? `. Largest growth: ${top}` : ''}`,
      });
    }
  }
  const warnings: CheckResult['warnings'] = comparison.grown.map((c) => ({
    code: c.kind === 'added' ? 'TOOL_ADDED' : 'TOOL_GROWTH',
    id: c.id,
    message:
      c.kind === 'added'
        ? `${c.id} was added (+${c.after} tokens)`
        : `${c.id} grew by ${countOf(c.delta, 'token')} (${c.before} → ${c.after}, ${fmtPct((c.delta / Math.max(1, c.before)) * 100)})`,
  }));
  for (const c of comparison.changes) {
    if (c.kind === 'changed' && c.delta === 0)
      warnings.push({ code: 'TOOL_CHANGED', id: c.id, message: `${c.id} changed its definition (same token count)` });
  }
  return { failures, warnings };
}

export interface CheckOptions {
  thresholds: ThresholdFlags;
  /** --update: write the baseline from this run. */
  update: boolean;
  /** Labelled intents for the retrieval gate. */
  queries?: string;
  k: number;
  baseline?: string;
  /** --store: the retrieval gate ranks with this usage store (a file or a PostgreSQL URL); without it, none. */
  store?: string;
}

export async function checkServers(
  ctx: AppContext,
  options: CheckOptions,
): Promise<{ result: CheckResult; notes: string[]; exitCode: number }> {
  const { io, global } = ctx;
  const { update, queries, k } = options;
  const opts = options.thresholds;

  // A gate never decides on cached tool lists, unless --cache asks for them.
  const loaded = await loadSetup(global, io, { fresh: global.cacheAsked !== true });
  const flagBaseline = options.baseline ?? DEFAULT_BASELINE;
  const baselineFile =
    flagBaseline === DEFAULT_BASELINE && loaded.config.baseline ? loaded.config.baseline : flagBaseline;
  // --update writes anew a baseline of ours it cannot read (a merge conflict left in it); not someone else's file.
  const { baseline: existing, broken } = update
    ? await readBaselineForUpdate(baselineFile, io.cwd)
    : { baseline: await readBaselineFile(baselineFile, io.cwd), broken: undefined };
  // A file named with --baseline is named in the fix too (check --update alone writes the default or configured one).
  const named = options.baseline !== undefined && options.baseline !== DEFAULT_BASELINE;
  if (!existing && !update)
    throw new SmartError('BASELINE_MISSING', {
      file: baselineFile,
      ...(named ? { flag: shellQuote(baselineFile) } : {}),
    });

  const thresholds = resolveThresholds(opts, loaded.config, existing?.thresholds);
  // The baseline's servers this run did not reach although still defined (failed, or waiting for an approval).
  const missing = existing
    ? findMissingServers(existing, loaded.servers, loaded.definitions?.servers, global.server)
    : [];
  const held = missing.filter((m) => m.reason !== 'failed').map((m) => m.server);
  const unavailable = loaded.servers.filter((s) => s.status === 'error').map((s) => s.name);
  const causeOf = (n: string): string => loaded.servers.find((s) => s.name === n)?.error ?? 'no reason given';
  const notes: string[] = unavailable.map(
    (n) => `server ${n} could not be reached: ${causeOf(n)}; it is left out of the comparison`,
  );
  if (broken) notes.push(`the baseline could not be read (${broken}); check --update writes it anew`);
  // A recall floor from the config or the baseline is a check only with labelled intents (--min-recall needs them).
  if (thresholds.minRecall !== undefined && !queries && !update) {
    const from = loaded.config.thresholds?.minRecall !== undefined ? 'the config' : 'the baseline';
    notes.push(
      `thresholds.minRecall ${thresholds.minRecall} (from ${from}) was not checked: recall is measured only with --queries <labelled intents .jsonl>`,
    );
  }
  const noneAnswered = loaded.servers.length > 0 && unavailable.length === loaded.servers.length;
  // A baseline is never written from failed servers: a server that failed and has no earlier entry would vanish.
  const lost = unavailable.filter((n) => !own(existing?.servers, n));
  if (update && (noneAnswered || lost.length > 0)) {
    throw new SmartError('BASELINE_FROM_FAILED', {
      file: baselineFile,
      servers: (lost.length > 0 ? lost : unavailable).map((n) => `${n} (${causeOf(n)})`).join('; '),
    });
  }

  const encoding: Encoding = !update && existing ? existing.encoding : global.encoding;
  if (!update && existing && existing.encoding !== global.encoding) {
    notes.push(
      `counting with the baseline's encoding ${existing.encoding} (this run asked for ${global.encoding}); run check --update --encoding ` +
        `${global.encoding} to switch`,
    );
  }
  const measured = await measure(ctx, loaded.servers, encoding);

  let updated: CheckResult['updated'];
  let reference: Baseline;
  if (update) {
    const fresh = buildBaseline(measured, encoding, baselineThresholds(thresholds));
    // Servers that could not be reached keep their previous entries rather than vanishing from the baseline.
    // So do servers left out by --server: updating a selection must not drop the others.
    const keep = new Set([
      ...unavailable,
      ...Object.keys(existing?.servers ?? {}).filter((n) => global.server.length > 0 && !global.server.includes(n)),
    ]);
    for (const name of keep) {
      const prev = own(existing?.servers, name);
      if (prev && !fresh.servers[name]) fresh.servers[name] = prev;
    }
    for (const m of missing.filter((x) => x.reason !== 'failed'))
      notes.push(
        `server ${m.server} (${m.reason}: ${m.detail}) is not in the new baseline; its ${m.tools.length} tools (${m.tokens} tokens) no longer count`,
      );
    const text = serializeBaseline(fresh);
    const path = resolve(io.cwd, baselineFile);
    const current = existing ? await readFile(path, 'utf8') : undefined;
    const written = current !== text;
    if (written) await writeFileSafe(path, text);
    updated = {
      written,
      servers: Object.keys(fresh.servers).length,
      tokens: Object.values(fresh.servers).reduce((n, s) => n + s.tokens, 0),
    };
    reference = existing ?? fresh;
  } else {
    reference = existing as Baseline;
  }

  // Held servers are left out of both sides like failed ones: their tools did not go, they were not seen.
  const comparison = compareBaseline(reference, measured, {
    thresholds,
    unavailable: [...unavailable, ...held],
    only: global.server,
  });
  const updateText = updateCommand(global, options.baseline);
  const { failures, warnings } = describe(comparison, baselineFile, updateText);

  let retrieval: RetrievalResult | undefined;
  if (queries) {
    const cases = await readLabelledIntents(queries, io.cwd, (w) => io.stderr(`warning: ${w}\n`));
    // The gate stays reproducible: it reads a usage store only when one is named on the command line.
    const usage = options.store
      ? await readRankingUsage({
          store: options.store,
          defaultStore: loaded.paths.usageStore,
          now: Date.now(),
          cwd: io.cwd,
          env: io.env,
          warn: (w) => io.stderr(`warning: ${w}\n`),
        })
      : undefined;
    // The tools serve would serve, under its ids, as discover ranks them: a hidden tool is no hit.
    const rank = await hybridRanker(loaded.servers, loaded.config, usage, loaded.rules);
    const ranked = new Map<string, string[]>();
    const metrics = evaluateRankings(
      cases,
      (intent) => {
        const ids = rank(intent, k);
        ranked.set(intent, ids);
        return ids;
      },
      [k],
    );
    const recall = metrics.recallAt[String(k)] ?? 0;
    const passed = thresholds.minRecall === undefined || recall >= thresholds.minRecall;
    // As discover --queries: a typo in an expected id scores 0 silently otherwise, and the misses are listed.
    const known = new Set(toolRefsFromSnapshots(loaded.servers, loaded.rules).map((t) => t.id));
    const { misses, missCount, unknownExpected } = evaluationMisses(cases, ranked, k, known);
    warnUnknownExpected(io, queries, unknownExpected);
    retrieval = {
      queries,
      cases: metrics.cases,
      k,
      recall,
      mrr: metrics.mrr,
      passed,
      missCount,
      misses,
      ...(unknownExpected.length > 0 ? { unknownExpected } : {}),
    };
    if (thresholds.minRecall !== undefined) retrieval.minRecall = thresholds.minRecall;
    if (!passed) {
      failures.push({
        code: 'RECALL_BELOW',
        message: `hybrid discovery Recall@${k} is ${recall.toFixed(3)} on ${queries}, below the minimum ${thresholds.minRecall}`,
      });
    }
  }

  if (!update && !noneAnswered && missing.length > 0) failures.unshift(...missingFailures(missing, updateText));
  if (!update && noneAnswered) {
    // Nothing was measured: 0 → 0 is not a pass.
    failures.unshift({
      code: 'NO_SERVER_ANSWERED',
      message: `no server could be reached, so nothing was compared: ${unavailable.map((n) => `${n}: ${causeOf(n)}`).join('; ')}`,
    });
  }
  const gatePassed = update ? true : comparison.passed && !noneAnswered && missing.length === 0;
  const passed = gatePassed && (retrieval?.passed ?? true);
  const th: CheckResult['thresholds'] = {
    maxGrowth: formatGrowthLimit(thresholds.maxGrowth),
    allowedGrowth: Math.floor(comparison.allowedGrowth),
  };
  if (thresholds.max !== undefined) th.max = thresholds.max;
  if (thresholds.minRecall !== undefined) th.minRecall = thresholds.minRecall;
  const result: CheckResult = {
    baseline: baselineFile,
    passed,
    totals: comparison.totals,
    changes: comparison.changes.map(({ id, kind, before, after, delta, hashChanged }) => ({
      id,
      kind,
      before,
      after,
      delta,
      hashChanged,
    })),
    encoding,
    thresholds: th,
    failures: update ? failures.filter((f) => f.code === 'RECALL_BELOW') : failures,
    warnings: update ? [] : warnings,
    servers: comparison.servers,
    unavailable,
    missing,
  };
  if (retrieval) result.retrieval = retrieval;
  if (updated) result.updated = updated;

  // 1 beats 3 only when the check could be decided from servers that answered.
  const exitCode = noneAnswered ? 3 : !passed ? 1 : unavailable.length > 0 ? 3 : 0;
  return { result, notes, exitCode };
}
