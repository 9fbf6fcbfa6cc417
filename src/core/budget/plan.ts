/** Budget verdict and a plan that fits, least harm first. Every figure comes from re-counting transformed definitions. */
import type { ToolSnapshot, UsageStats } from '../types.js';

export interface BudgetServerInput {
  name: string;
  tools: ToolSnapshot[];
}

export type PlanLevel = 'lossless' | 'compact' | 'names';

/** Everything the planner needs from the tokenizer and the condenser. */
export interface PlanDeps {
  countTool: (tool: ToolSnapshot, serverName: string) => number;
  condenseTool: (tool: ToolSnapshot, level: PlanLevel) => ToolSnapshot;
  /** The four meta-tools that stand in for deferred servers. */
  metaTools: readonly ToolSnapshot[];
}

/** Share of the limit past which a fitting context is reported as near the limit (the budget manager's reserve threshold). */
export const RESERVE_THRESHOLD = 0.8;

export interface BudgetVerdict {
  max: number;
  limit: number;
  used: number;
  fits: boolean;
  /** Fits, but uses more than RESERVE_THRESHOLD of the limit. */
  nearLimit: boolean;
  servers: { name: string; tokens: number; toolCount: number; share: number }[];
}

/** Used tokens against the limit; share is each server's part of the context window (`max`). */
export function checkBudget(
  servers: readonly BudgetServerInput[],
  max: number,
  limit: number,
  countTool: PlanDeps['countTool'],
): BudgetVerdict {
  const rows = servers.map((s) => {
    const tokens = s.tools.reduce((n, t) => n + countTool(t, s.name), 0);
    return { name: s.name, tokens, toolCount: s.tools.length, share: max > 0 ? tokens / max : 0 };
  });
  const used = rows.reduce((n, r) => n + r.tokens, 0);
  const fits = used <= limit;
  return { max, limit, used, fits, nearLimit: fits && used > RESERVE_THRESHOLD * limit, servers: rows };
}

export type PlanAction = 'condense-lossless' | 'condense-compact' | 'defer' | 'drop-unused' | 'names-only';

export interface PlanStep {
  action: PlanAction;
  /** A server name, or "*" for every server. */
  target: string;
  tokensSaved: number;
  /** Total tool tokens after this step. */
  after: number;
  /** Tools a drop-unused / names-only step affects (tool names). */
  tools?: string[];
  /** Tokens the four meta-tools add, on the first defer step only (already netted out of tokensSaved). */
  metaTokens?: number;
  /** drop-unused: the recorded calls to the server that the step rests on (decayed by age, rounded down). */
  calls?: number;
}

/**
 * drop-unused needs at least this many recorded calls per tool of a server. With 3k calls, a tool that had an even
 * share (1/k) of them would have been seen with about 95 % probability ((1 − 1/k)^3k < e^−3): fewer calls are too
 * little evidence that an unseen tool is unused.
 */
export const DROP_UNUSED_CALLS_PER_TOOL = 3;

/** A server whose unused tools were kept because the usage store holds too few calls to judge them. */
export interface ThinEvidence {
  server: string;
  calls: number;
  needed: number;
}

export interface PlannedServer {
  name: string;
  level: 'full' | PlanLevel | 'mixed';
  deferred: boolean;
  tokens: number;
  tools: ToolSnapshot[];
}

export interface BudgetPlan {
  steps: PlanStep[];
  /** used − Σ tokensSaved. */
  final: number;
  fits: boolean;
  /** How least-used was decided: from the usage store, or by size (largest first) without one. */
  orderedBy: 'usage' | 'size';
  /** Servers drop-unused would have touched but for too few recorded calls. */
  thinEvidence: ThinEvidence[];
  deferred: string[];
  servers: PlannedServer[];
  /** The meta-tools, when any server is deferred. */
  metaTools: ToolSnapshot[];
  metaTokens: number;
}

export interface PlanRequest {
  servers: readonly BudgetServerInput[];
  limit: number;
  usage?: UsageStats;
  /** Intent mode: these tool ids keep full (lossless) schemas, every other tool becomes names-only. */
  keepFull?: readonly string[];
}

type ToolLevel = 'full' | PlanLevel;

interface ServerState {
  name: string;
  tools: ToolSnapshot[];
  levels: ToolLevel[];
  dropped: boolean[];
  deferred: boolean;
  uses: number;
}

const cmpName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A plan that brings the tool context under `limit`, stopping as soon as it fits. */
export function planBudget(req: PlanRequest, deps: PlanDeps): BudgetPlan {
  const cache = new Map<string, number>();
  const condensed = new Map<string, ToolSnapshot>();
  const transform = (s: ServerState, i: number): ToolSnapshot => {
    const tool = s.tools[i] as ToolSnapshot;
    const level = s.levels[i] ?? 'full';
    if (level === 'full') return tool;
    const key = `${s.name}\u0000${i}\u0000${level}`;
    let t = condensed.get(key);
    if (!t) {
      t = deps.condenseTool(tool, level);
      condensed.set(key, t);
    }
    return t;
  };
  const toolTokens = (s: ServerState, i: number): number => {
    const key = `${s.name}\u0000${i}\u0000${s.levels[i] ?? 'full'}`;
    let n = cache.get(key);
    if (n === undefined) {
      n = deps.countTool(transform(s, i), s.name);
      cache.set(key, n);
    }
    return n;
  };
  const serverTokens = (s: ServerState): number => {
    if (s.deferred) return 0;
    let n = 0;
    for (let i = 0; i < s.tools.length; i++) if (!s.dropped[i]) n += toolTokens(s, i);
    return n;
  };
  const metaTokens = deps.metaTools.reduce((n, t) => n + deps.countTool(t, 'mcp-smart'), 0);

  const usage = req.usage;
  const toolUses = (server: string, tool: string): number => {
    const u = usage?.tools[`${server}.${tool}`];
    return u ? u.success + u.failure : 0;
  };
  const states: ServerState[] = req.servers.map((s) => ({
    name: s.name,
    tools: s.tools,
    levels: s.tools.map(() => 'full'),
    dropped: s.tools.map(() => false),
    deferred: false,
    uses: s.tools.reduce((n, t) => n + toolUses(s.name, t.name), 0),
  }));
  const total = (): number =>
    states.reduce((n, s) => n + serverTokens(s), 0) + (states.some((s) => s.deferred) ? metaTokens : 0);

  const steps: PlanStep[] = [];
  let current = total();
  const fits = (): boolean => current <= req.limit;
  const record = (step: Omit<PlanStep, 'tokensSaved' | 'after'>, mutate: () => void, keepZero = false): void => {
    const before = current;
    mutate();
    current = total();
    if (before - current !== 0 || keepZero) steps.push({ ...step, tokensSaved: before - current, after: current });
  };
  const leastUsedFirst = (a: ServerState, b: ServerState): number =>
    (usage ? a.uses - b.uses : 0) || serverTokens(b) - serverTokens(a) || cmpName(a.name, b.name);
  const defer = (s: ServerState): void => {
    const first = !states.some((x) => x.deferred);
    const step: Omit<PlanStep, 'tokensSaved' | 'after'> = { action: 'defer', target: s.name };
    if (first) step.metaTokens = metaTokens;
    record(step, () => (s.deferred = true), true);
  };

  const thinEvidence: ThinEvidence[] = [];
  if (req.keepFull && !fits()) {
    // Intent mode shrinks only as far as needed: once the context fits, no further tool loses its schema.
    const keep = new Set(req.keepFull);
    record({ action: 'condense-lossless', target: '*' }, () => states.forEach((s) => s.levels.fill('lossless')));
    for (const s of [...states].sort(leastUsedFirst)) {
      if (fits()) break;
      const names: string[] = [];
      record({ action: 'names-only', target: s.name, tools: names }, () =>
        s.tools.forEach((t, i) => {
          if (!keep.has(`${s.name}.${t.name}`)) {
            s.levels[i] = 'names';
            names.push(t.name);
          }
        }),
      );
    }
  } else if (!fits()) {
    record({ action: 'condense-lossless', target: '*' }, () => states.forEach((s) => s.levels.fill('lossless')));
    for (const s of [...states].sort(leastUsedFirst)) {
      if (fits()) break;
      record({ action: 'condense-compact', target: s.name }, () => s.levels.fill('compact'));
    }
    // With usage data, never-used servers are deferred before any used tool is touched.
    const deferOrder = (): ServerState[] => states.filter((s) => !s.deferred).sort(leastUsedFirst);
    // Deferring only pays when the servers moved out outweigh the meta-tools that replace them.
    const worthDeferring = (group: ServerState[]): boolean =>
      states.some((s) => s.deferred) || group.reduce((n, s) => n + serverTokens(s), 0) > metaTokens;
    const deferPhase = (group: ServerState[]): void => {
      if (!worthDeferring(group)) return;
      for (const s of group) {
        if (fits()) break;
        defer(s);
      }
    };
    deferPhase(deferOrder().filter((s) => !usage || s.uses === 0));
    if (usage) {
      for (const s of deferOrder()) {
        if (fits()) break;
        const needed = DROP_UNUSED_CALLS_PER_TOOL * s.tools.length;
        if (s.uses < needed) {
          if (s.tools.some((t) => toolUses(s.name, t.name) === 0))
            thinEvidence.push({ server: s.name, calls: Math.floor(s.uses), needed });
          continue;
        }
        const names: string[] = [];
        record({ action: 'drop-unused', target: s.name, tools: names, calls: Math.floor(s.uses) }, () =>
          s.tools.forEach((t, i) => {
            if (toolUses(s.name, t.name) === 0 && !s.dropped[i]) {
              s.dropped[i] = true;
              names.push(t.name);
            }
          }),
        );
      }
      deferPhase(deferOrder());
    }
  }

  const servers: PlannedServer[] = states.map((s) => {
    const kept = s.tools.map((_, i) => i).filter((i) => !s.dropped[i]);
    const levels = new Set(kept.map((i) => s.levels[i] ?? 'full'));
    const level = levels.size === 1 ? ([...levels][0] as ToolLevel) : levels.size === 0 ? 'full' : 'mixed';
    return {
      name: s.name,
      level,
      deferred: s.deferred,
      tokens: serverTokens(s),
      tools: s.deferred ? [] : kept.map((i) => transform(s, i)),
    };
  });
  const deferred = states.filter((s) => s.deferred).map((s) => s.name);
  return {
    steps,
    final: current,
    fits: fits(),
    orderedBy: usage ? 'usage' : 'size',
    thinEvidence,
    deferred,
    servers,
    metaTools: deferred.length > 0 ? [...deps.metaTools] : [],
    metaTokens,
  };
}
