/** The `budget` use case: does the tool context fit the limit; if not, a plan that fits (least harm first). */
import { resolve } from 'node:path';
import { countOf } from '../../reporters/format.js';
import { documentKind } from '../../reporters/json.js';
import { counterFor } from '../services/counter.js';
import { hybridRanking } from '../services/rank.js';
import { checkWriteTarget, writeFileSafe } from '../../process/safe-write.js';
import { condenseTool, metaTools } from '../../core/condense/index.js';
import { sentSnapshots } from '../../core/config/tool-filter.js';
import {
  appliedDocument,
  checkBudget,
  DROP_UNUSED_CALLS_PER_TOOL,
  planBudget,
  type BudgetPlan,
  type BudgetResult,
  type BudgetVerdict,
  type PlanDeps,
  type PlanLevel,
} from '../../core/budget/index.js';
import { countToolTokens, type TokenCounter } from '../../core/tokens/index.js';
import { computing, type Pause } from '../../process/signals.js';
import { debugPhase } from '../services/progress.js';
import type { ServerSnapshot, SmartConfig, ToolSnapshot, UsageStats } from '../../core/types.js';
import { resolveLimits, type LimitFlags } from '../services/budget-limits.js';
import type { AppContext } from '../services/context.js';
import { loadSetup, serverFailureCode } from '../services/setup.js';
import { loadHintRules, summarizeLoadHints } from '../../core/hints/summary.js';
import { storeLabel } from '../../core/store/url.js';
import { readRankingUsage, type RankingUsage } from '../services/usage.js';

export const INTENT_K = 10;

export function planDeps(counter: TokenCounter): PlanDeps {
  return {
    countTool: (tool, server) => countToolTokens(tool, counter, 'json', server),
    condenseTool: (tool, level) => condenseTool(tool, level),
    metaTools: metaTools(),
  };
}

const PLAN_LEVELS: readonly PlanLevel[] = ['lossless', 'compact', 'names'];

/**
 * Plan deps whose condensed tools are remembered, and a warm-up that condenses and counts every tool ahead of the
 * synchronous check and plan, pausing between tools so a signal stops a large catalogue promptly.
 */
function pausingPlanDeps(counter: TokenCounter): PlanDeps & {
  warm: (servers: readonly ServerSnapshot[], levels: readonly PlanLevel[], pause: Pause) => Promise<void>;
} {
  const base = planDeps(counter);
  const condensed = new Map<ToolSnapshot, Map<PlanLevel, ToolSnapshot>>();
  const condense = (tool: ToolSnapshot, level: PlanLevel): ToolSnapshot => {
    let byLevel = condensed.get(tool);
    if (!byLevel) condensed.set(tool, (byLevel = new Map<PlanLevel, ToolSnapshot>()));
    let t = byLevel.get(level);
    if (!t) byLevel.set(level, (t = base.condenseTool(tool, level)));
    return t;
  };
  return {
    ...base,
    condenseTool: condense,
    warm: async (servers, levels, pause) => {
      for (const s of servers)
        for (const tool of s.tools) {
          base.countTool(tool, s.name);
          for (const level of levels) base.countTool(condense(tool, level), s.name);
          await pause();
        }
    },
  };
}

/**
 * Ids of the `k` tools hybrid discovery ranks highest for the intent, with the usage store's prior and intents;
 * undefined when nothing matched (discover's fallback offers every tool, which is no ranking to keep by).
 */
async function rankIntent(
  servers: ServerSnapshot[],
  intent: string,
  k: number,
  config: SmartConfig,
  usage: RankingUsage | undefined,
): Promise<string[] | undefined> {
  const { ids, fallback } = (await hybridRanking(servers, config, usage))(intent, k);
  return fallback ? undefined : ids;
}

export interface BudgetOptions {
  limits: LimitFlags;
  /** Write the planned definitions here (`--apply -o`). */
  applyTo?: string;
  intent?: string;
  store?: string;
}

/** What `--apply -o` writes: an existing file is replaced only when it holds a budget document. */
const BUDGET_DOCUMENT = documentKind('budget');

export async function budgetServers(
  ctx: AppContext,
  options: BudgetOptions,
): Promise<{ result: BudgetResult; exitCode: number }> {
  const { io, global } = ctx;
  const { intent, store } = options;
  const output = options.applyTo;

  if (output) await checkWriteTarget(resolve(io.cwd, output), BUDGET_DOCUMENT); // before connecting
  const loaded = await loadSetup(global, io, { fresh: true }); // a gate never decides on cached lists
  const limits = resolveLimits(options.limits, loaded.config);
  // Count only what the client sends: tools its config hides are left out (the snapshot keeps them).
  const ok = sentSnapshots(loaded.servers, loaded.hidden ?? {}).filter((s) => s.status === 'ok');
  const failed = loaded.servers.filter((s) => s.status === 'error');
  const notes: string[] = [];
  for (const f of failed)
    notes.push(`server ${f.name} could not be reached (${f.error ?? 'error'}); its tools are not counted`);
  for (const [name, tools] of Object.entries(loaded.hidden ?? {}))
    notes.push(
      `server ${name}: ${countOf(tools.length, 'tool')} hidden by a tool filter (the client's or serve's in mcp-smart.config.json) ${tools.length === 1 ? 'is' : 'are'} not counted`,
    );

  const counter = await counterFor(global.encoding);
  const deps = pausingPlanDeps(counter);
  const verdict: BudgetVerdict = await computing(async (pause) => {
    debugPhase(
      ctx,
      `counting ${countOf(
        ok.reduce((n, s) => n + s.tools.length, 0),
        'tool',
      )}`,
    );
    await deps.warm(ok, [], pause);
    return checkBudget(ok, limits.max, limits.limit, deps.countTool);
  });

  // Without --store, the usage store `replay --learn` fills (user data folder) is used when it exists. It is read
  // as every ranking reads it: capped and decayed relative to its newest recording. A gate tolerates a missing one.
  const read = await readRankingUsage({
    store,
    defaultStore: loaded.paths.usageStore,
    now: Date.now(),
    cwd: io.cwd,
    env: io.env,
    configStore: loaded.config.store,
    warn: (w) => io.stderr(`warning: ${w}\n`),
    missingStore: 'tolerate',
  });
  const usage: UsageStats | undefined = read?.usage;
  if (store && !read) notes.push(`usage store ${storeLabel(store)} not found`);

  let keepFull: string[] | undefined;
  if (intent) {
    keepFull = await rankIntent(ok, intent, INTENT_K, loaded.config, read);
    if (!keepFull)
      notes.push(
        `the intent "${intent}" matched no tool (none of its words is in a tool's name, description or parameters): ` +
          'the plan keeps no tool in full for it; reword it with words the tools use',
      );
  }

  let plan: BudgetPlan | undefined;
  if (!verdict.fits || keepFull) {
    plan = await computing(async (pause) => {
      debugPhase(ctx, `planning: condensing and counting every tool at ${PLAN_LEVELS.join(', ')}`);
      await deps.warm(ok, PLAN_LEVELS, pause);
      return planBudget({ servers: ok, limit: limits.limit, usage, keepFull }, deps);
    });
    if (!keepFull) {
      if (!usage)
        notes.push(
          'no usage data (run `mcp-smart replay <recordings> --learn`, or pass --store <file>): least-used servers were taken to be the largest; no ' +
            'tools were dropped',
        );
    }
    for (const t of plan.thinEvidence)
      notes.push(
        `unused tools of ${t.server} were kept: the usage store holds ${t.calls} of the ${t.needed} recorded calls to its tools ` +
          `that drop-unused needs (${DROP_UNUSED_CALLS_PER_TOOL} per tool) before it calls a tool unused`,
      );
  }

  const result: BudgetResult = {
    max: limits.max,
    limit: limits.limit,
    used: verdict.used,
    // A server that did not answer was not measured: "fits" is not claimed for a count that leaves it out.
    fits: verdict.fits && failed.length === 0,
    servers: [
      ...verdict.servers.map((s) => ({
        name: s.name,
        tokens: s.tokens,
        share: s.share,
        toolCount: s.toolCount,
        status: 'ok' as const,
      })),
      ...failed.map((s) => ({
        name: s.name,
        tokens: 0,
        share: 0,
        toolCount: 0,
        status: 'error' as const,
        error: s.error,
      })),
    ],
    plan: (plan?.steps ?? []).map((s) => ({ ...s })),
    encoding: global.encoding,
    share: limits.share,
    nearLimit: verdict.nearLimit,
    final: plan ? plan.final : verdict.used,
    planFits: plan ? plan.fits : verdict.fits && failed.length === 0,
    orderedBy: keepFull ? 'intent' : plan ? plan.orderedBy : 'none',
    usage: usage ? 'store' : 'none',
    deferred: plan?.deferred ?? [],
    notes,
    unmeasured: failed.map((s) => s.name),
  };
  if (intent && keepFull) result.intent = { text: intent, k: INTENT_K, kept: keepFull };
  const hintRules = loadHintRules(loaded.config.serve);
  if (usage && hintRules)
    result.loadHints = summarizeLoadHints(ok, loaded.config.serve, usage, hintRules, {
      tool: deps.countTool,
      text: (t) => counter.count(t),
    });

  if (output) {
    await writeFileSafe(
      resolve(io.cwd, output),
      JSON.stringify(appliedDocument(result, plan, loaded.servers), null, 2) + '\n',
      { kind: BUDGET_DOCUMENT },
    );
    result.output = output;
  }

  const exitCode = !verdict.fits ? 1 : serverFailureCode(loaded.servers);
  return { result, exitCode };
}
