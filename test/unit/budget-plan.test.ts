import { describe, expect, it } from 'vitest';
import { checkBudget, planBudget, type PlanDeps } from '../../src/core/budget/index.js';
import type { ToolSnapshot, UsageStats } from '../../src/core/types.js';

// Deterministic stand-ins: a "token" is a character of the tool's JSON; levels strip known parts.
const deps: PlanDeps = {
  countTool: (t) => JSON.stringify(t).length,
  condenseTool: (t, level) => {
    if (level === 'names') return { name: t.name };
    const { $comment: _c, ...rest } = t as ToolSnapshot & { $comment?: string };
    void _c;
    if (level === 'lossless') return rest;
    return { ...rest, description: (rest.description ?? '').slice(0, 5) };
  },
  metaTools: [{ name: 'find_tool' }, { name: 'describe_tool' }, { name: 'list_tools' }, { name: 'call_tool' }],
};

const tool = (name: string, descLen: number, comment = 20): ToolSnapshot => ({
  name,
  description: 'd'.repeat(descLen),
  $comment: 'c'.repeat(comment),
});

const servers = [
  { name: 'alpha', tools: [tool('a1', 100), tool('a2', 50)] },
  { name: 'beta', tools: [tool('b1', 300)] },
  { name: 'gamma', tools: [tool('g1', 30), tool('g2', 30)] },
];

const used = (list: typeof servers): number => checkBudget(list, 1, 1, deps.countTool).used;
const STEPS_BIG: unknown[] = [
  ['condense-lossless', '*', 198],
  ['condense-compact', 'delta', 790],
  ['condense-compact', 'alpha', 140],
  ['condense-compact', 'gamma', 50],
  ['condense-compact', 'beta', 295],
  ['defer', 'alpha', -15],
  ['defer', 'delta', 70],
];
const sumSaved = (steps: { tokensSaved: number }[]): number => steps.reduce((n, s) => n + s.tokensSaved, 0);

describe('checkBudget', () => {
  it('reports used tokens, per-server share of max and fits', () => {
    const v = checkBudget(servers, 10_000, 1000, deps.countTool);
    expect(v.used).toBe(830);
    expect(v.servers.map((s) => [s.name, s.tokens])).toEqual([
      ['alpha', 278],
      ['beta', 364],
      ['gamma', 188],
    ]);
    expect(v.servers[1]?.share).toBeCloseTo(0.0364, 6);
    expect(v.fits).toBe(true);
    expect(v.nearLimit).toBe(true);
    expect(checkBudget(servers, 10_000, 1038, deps.countTool).nearLimit).toBe(false);
    expect(checkBudget(servers, 10_000, 829, deps.countTool)).toMatchObject({ fits: false, nearLimit: false });
    // Exactly at the limit fits.
    expect(checkBudget(servers, 10_000, 830, deps.countTool).fits).toBe(true);
  });
});

describe('planBudget', () => {
  it('plans nothing when the tools already fit', () => {
    const p = planBudget({ servers, limit: 830 }, deps);
    expect(p.steps).toEqual([]);
    expect(p.final).toBe(830);
    expect(p.fits).toBe(true);
  });

  it('stops after lossless when that is enough, and the figures add up', () => {
    const p = planBudget({ servers, limit: 800 }, deps);
    expect(p.steps.map((s) => [s.action, s.target, s.tokensSaved])).toEqual([['condense-lossless', '*', 170]]);
    expect(p.final).toBe(660);
    expect(p.fits).toBe(true);
  });

  it('without usage compacts the largest servers first, then defers the largest', () => {
    const p = planBudget({ servers, limit: 300 }, deps);
    expect(p.orderedBy).toBe('size');
    expect(p.steps.map((s) => [s.action, s.target, s.tokensSaved])).toEqual([
      ['condense-lossless', '*', 170],
      ['condense-compact', 'beta', 295],
      ['condense-compact', 'alpha', 140],
    ]);
    expect(830 - sumSaved(p.steps)).toBe(p.final);
    expect(p.final).toBe(225);
    expect(p.fits).toBe(true);
  });

  it('defers servers behind the meta-tools, charging the meta-tools once', () => {
    const p = planBudget({ servers, limit: 120 }, deps);
    expect(p.steps.map((s) => [s.action, s.target, s.tokensSaved, s.after])).toEqual([
      ['condense-lossless', '*', 170, 660],
      ['condense-compact', 'beta', 295, 365],
      ['condense-compact', 'alpha', 140, 225],
      ['condense-compact', 'gamma', 50, 175],
      ['defer', 'alpha', -15, 190],
      ['defer', 'gamma', 70, 120],
    ]);
    expect(p.metaTokens).toBe(85);
    const defers = p.steps.filter((s) => s.action === 'defer');
    expect(defers[0]?.metaTokens).toBe(p.metaTokens);
    expect(defers.slice(1).every((s) => s.metaTokens === undefined)).toBe(true);
    expect(830 - sumSaved(p.steps)).toBe(p.final);
    expect(p.fits).toBe(true);
    expect(p.servers.filter((s) => s.deferred).every((s) => s.tools.length === 0)).toBe(true);
    expect(p.metaTools.map((t) => t.name)).toEqual(['find_tool', 'describe_tool', 'list_tools', 'call_tool']);
  });

  it('says so when nothing fits', () => {
    const p = planBudget({ servers, limit: 10 }, deps);
    expect(p.fits).toBe(false);
    expect(p.deferred).toEqual(['alpha', 'beta', 'gamma']);
    expect(p.final).toBe(p.metaTokens);
    expect(830 - sumSaved(p.steps)).toBe(p.final);
  });

  it('with usage: least-used first, never-used servers deferred before unused tools are dropped', () => {
    const usage: UsageStats = {
      tools: {
        'beta.b1': { success: 9, failure: 0, lastUsed: 1, categories: {} },
        'alpha.a1': { success: 5, failure: 1, lastUsed: 1, categories: {} },
      },
    };
    const p = planBudget({ servers, limit: 100, usage }, deps);
    expect(p.orderedBy).toBe('usage');
    const actions = p.steps.map((s) => [s.action, s.target]);
    expect(actions.slice(0, 4)).toEqual([
      ['condense-lossless', '*'],
      ['condense-compact', 'gamma'],
      ['condense-compact', 'alpha'],
      ['condense-compact', 'beta'],
    ]);
    // gamma: no call to judge its tools by (6 needed), so it is deferred rather than stripped; alpha's 6 calls suffice.
    expect(p.steps.slice(4).map((s) => [s.action, s.target, s.tokensSaved, s.tools, s.calls])).toEqual([
      ['drop-unused', 'alpha', 35, ['a2'], 6],
      ['defer', 'gamma', -15, undefined, undefined],
      ['defer', 'alpha', 35, undefined, undefined],
      ['defer', 'beta', 35, undefined, undefined],
    ]);
    expect(p.thinEvidence).toEqual([{ server: 'gamma', calls: 0, needed: 6 }]);
    expect(p.final).toBe(85);
    expect(830 - sumSaved(p.steps)).toBe(p.final);
    expect(p.fits).toBe(true);
  });

  it('with usage: never-used servers, together worth more than the meta-tools, are deferred (largest first) before any tool is dropped', () => {
    const usage: UsageStats = { tools: { 'beta.b1': { success: 1, failure: 0, lastUsed: 1, categories: {} } } };
    const withBig = [...servers, { name: 'delta', tools: [tool('d1', 400, 0), tool('d2', 400, 0)] }];
    const p = planBudget({ servers: withBig, limit: 200, usage }, deps);
    expect(p.steps.map((s) => [s.action, s.target, s.tokensSaved])).toEqual(STEPS_BIG);
    expect(p.deferred).toEqual(['alpha', 'delta']);
    expect(p.steps.some((s) => s.action === 'drop-unused')).toBe(false);
    expect(used(withBig) - sumSaved(p.steps)).toBe(p.final);
    expect(p.fits).toBe(true);
  });

  it('intent mode keeps the named tools and makes other tools names-only, server by server, until it fits', () => {
    const p = planBudget({ servers, limit: 300, keepFull: ['beta.b1'] }, deps);
    expect(p.steps.map((s) => [s.action, s.target, s.tokensSaved])).toEqual([
      ['condense-lossless', '*', 170],
      ['names-only', 'alpha', 184],
      ['names-only', 'gamma', 94],
    ]);
    expect(p.final).toBe(382);
    const beta = p.servers.find((s) => s.name === 'beta');
    expect(beta?.tools[0]?.description).toHaveLength(300);
    expect(p.servers.find((s) => s.name === 'alpha')?.tools).toEqual([{ name: 'a1' }, { name: 'a2' }]);
    expect(830 - sumSaved(p.steps)).toBe(p.final);
    // Once it fits, no further tool loses its schema.
    const q = planBudget({ servers, limit: 500, keepFull: ['beta.b1'] }, deps);
    expect(q.steps.map((s) => [s.action, s.target])).toEqual([
      ['condense-lossless', '*'],
      ['names-only', 'alpha'],
    ]);
    expect(q.fits).toBe(true);
    expect(planBudget({ servers, limit: 10_000, keepFull: ['beta.b1'] }, deps).steps).toEqual([]);
  });

  it('with usage: stops dropping unused tools as soon as the context fits', () => {
    const usage: UsageStats = {
      tools: {
        'alpha.a1': { success: 6, failure: 0, lastUsed: 1, categories: {} },
        'beta.b1': { success: 9, failure: 0, lastUsed: 1, categories: {} },
      },
    };
    const two = [
      { name: 'alpha', tools: [tool('a1', 10), tool('a2', 200)] },
      { name: 'beta', tools: [tool('b1', 10), tool('b2', 200)] },
    ];
    // Where the whole plan would go: alpha (fewer calls) is dropped from first, then beta.
    const all = planBudget({ servers: two, limit: 0, usage }, deps);
    const firstDrop = all.steps.find((s) => s.action === 'drop-unused');
    expect(firstDrop).toMatchObject({ target: 'alpha', tools: ['a2'] });
    // With the limit at what that first drop reaches, beta keeps its unused tool.
    const p = planBudget({ servers: two, limit: firstDrop!.after, usage }, deps);
    expect(p.fits).toBe(true);
    expect(p.steps.filter((s) => s.action === 'drop-unused').map((s) => s.target)).toEqual(['alpha']);
    expect(p.servers.find((s) => s.name === 'beta')?.tools.map((t) => t.name)).toEqual(['b1', 'b2']);
  });
});

// Cases a mutation run of plan.ts showed no test pinned down (bench/RESULTS.md, "Mutation testing").
describe('planBudget, the finer rules', () => {
  // Unlike `deps`, it refuses a level it does not know, so a wrong level name cannot pass as compact.
  const strict: PlanDeps = {
    ...deps,
    condenseTool: (t, level) => {
      if (level !== 'names' && level !== 'lossless' && level !== 'compact')
        throw new Error(`unknown level ${String(level)}`);
      return deps.condenseTool(t, level);
    },
  };
  const steps = (p: { steps: { action: string; target: string; tokensSaved: number }[] }): unknown[] =>
    p.steps.map((s) => [s.action, s.target, s.tokensSaved]);

  it('checkBudget: share is 0 with max 0, and exactly 80 % of the limit is not yet near it', () => {
    const flat = (): number => 400;
    const two = [{ name: 'a', tools: [tool('a1', 1), tool('a2', 1)] }];
    expect(checkBudget(two, 0, 1000, flat).servers[0]?.share).toBe(0);
    expect(checkBudget(two, 10_000, 1000, flat)).toMatchObject({ used: 800, fits: true, nearLimit: false });
    expect(checkBudget(two, 10_000, 999, flat).nearLimit).toBe(true);
  });

  it('servers of equal size and usage are taken in name order, whatever order they were listed in', () => {
    const same = (name: string): { name: string; tools: ToolSnapshot[] } => ({
      name,
      tools: [tool(`${name[0]}1`, 100)],
    });
    const [beta, eta, zeta] = [same('beta'), same('eta'), same('zeta')];
    const orders = [
      [beta, eta, zeta],
      [beta, zeta, eta],
      [eta, beta, zeta],
      [eta, zeta, beta],
      [zeta, beta, eta],
      [zeta, eta, beta],
    ];
    for (const list of orders) {
      const p = planBudget({ servers: list, limit: 0 }, strict);
      expect(p.steps.filter((s) => s.action === 'condense-compact').map((s) => s.target)).toEqual([
        'beta',
        'eta',
        'zeta',
      ]);
    }
  });

  it('without usage no evidence is judged thin, even for servers too small to defer', () => {
    const one = [{ name: 'eta', tools: [tool('e1', 100)] }];
    const p = planBudget({ servers: one, limit: 0 }, strict);
    expect(p.deferred).toEqual([]);
    expect(p.thinEvidence).toEqual([]);
  });

  it('a server without tools is deferred as a step that saves 0, and reported at level full', () => {
    const p = planBudget({ servers: [...servers, { name: 'empty', tools: [] }], limit: 0 }, strict);
    expect(steps(p)).toContainEqual(['defer', 'empty', 0]);
    expect(p.servers.find((s) => s.name === 'empty')).toMatchObject({ level: 'full', deferred: true, tokens: 0 });
  });

  it('intent mode: least-used (here largest) servers lose schemas first whatever the listed order; each step names its tools', () => {
    const p = planBudget(
      { servers: [servers[2]!, servers[0]!, servers[1]!], limit: 300, keepFull: ['beta.b1'] },
      strict,
    );
    expect(p.steps.map((s) => [s.action, s.target, s.tools])).toEqual([
      ['condense-lossless', '*', undefined],
      ['names-only', 'alpha', ['a1', 'a2']],
      ['names-only', 'gamma', ['g1', 'g2']],
    ]);
    const mixed = planBudget({ servers, limit: 300, keepFull: ['alpha.a1', 'beta.b1'] }, strict);
    expect(mixed.servers.map((s) => [s.name, s.level])).toEqual([
      ['alpha', 'mixed'],
      ['beta', 'lossless'],
      ['gamma', 'names'],
    ]);
  });

  it('a plan that defers nothing carries no meta-tools', () => {
    const p = planBudget({ servers, limit: 800 }, strict);
    expect(p.deferred).toEqual([]);
    expect(p.metaTools).toEqual([]);
  });

  it('with usage: a never-used server is deferred before a used one loses its unused tools; dropped tools leave the plan', () => {
    const usage: UsageStats = { tools: { 'alpha.a1': { success: 6, failure: 0, lastUsed: 1, categories: {} } } };
    const list = [
      { name: 'alpha', tools: [tool('a1', 10), tool('a2', 200)] },
      { name: 'delta', tools: ['d1', 'd2', 'd3', 'd4'].map((n) => tool(n, 300, 0)) },
    ];
    const compacted = planBudget({ servers: list, limit: 0, usage }, strict).steps.find(
      (s) => s.action === 'condense-compact' && s.target === 'alpha',
    )!.after;
    const p = planBudget({ servers: list, limit: compacted - 1, usage }, strict);
    expect(p.steps.map((s) => [s.action, s.target])).toEqual([
      ['condense-lossless', '*'],
      ['condense-compact', 'delta'],
      ['condense-compact', 'alpha'],
      ['defer', 'delta'],
    ]);
    expect(p.fits).toBe(true);
    // Tighter still: now alpha's unused tool goes, and leaves alpha's planned tools.
    const q = planBudget({ servers: list, limit: p.final - 1, usage }, strict);
    expect(q.steps.map((s) => [s.action, s.target]).slice(-1)).toEqual([['drop-unused', 'alpha']]);
    expect(q.servers.find((s) => s.name === 'alpha')?.tools.map((t) => t.name)).toEqual(['a1']);
  });

  it('with usage: too few calls is thin evidence only for a server with an unused tool', () => {
    const usage: UsageStats = {
      tools: {
        'alpha.a1': { success: 1, failure: 0, lastUsed: 1, categories: {} },
        'alpha.a2': { success: 1, failure: 0, lastUsed: 1, categories: {} },
        'beta.b1': { success: 1, failure: 0, lastUsed: 1, categories: {} },
      },
    };
    const list = [servers[0]!, { name: 'beta', tools: [tool('b1', 300), tool('b2', 10)] }];
    const p = planBudget({ servers: list, limit: 0, usage }, strict);
    expect(p.thinEvidence).toEqual([{ server: 'beta', calls: 1, needed: 6 }]);
  });

  it('with usage: once the meta-tools are paid for, a used server worth less than them is still deferred to fit', () => {
    const usage: UsageStats = { tools: { 'alpha.a1': { success: 6, failure: 0, lastUsed: 1, categories: {} } } };
    const list = [
      { name: 'alpha', tools: [tool('a1', 10), tool('a2', 200)] },
      { name: 'delta', tools: ['d1', 'd2', 'd3', 'd4'].map((n) => tool(n, 300, 0)) },
    ];
    const p = planBudget({ servers: list, limit: 90, usage }, strict);
    expect(p.steps.map((s) => [s.action, s.target])).toEqual([
      ['condense-lossless', '*'],
      ['condense-compact', 'delta'],
      ['condense-compact', 'alpha'],
      ['defer', 'delta'],
      ['drop-unused', 'alpha'],
      ['defer', 'alpha'],
    ]);
    expect(p.fits).toBe(true);
    expect(p.final).toBe(p.metaTokens);
  });

  it('a server that costs exactly what the meta-tools cost is not deferred: nothing would be saved', () => {
    const name = 'n'.repeat(52); // compacted: {"name":"nnn…","description":"ddddd"} = 85 = the meta-tools
    const p = planBudget({ servers: [{ name: 'exact', tools: [tool(name, 300)] }], limit: 0 }, strict);
    expect(p.metaTokens).toBe(85);
    expect(p.servers[0]?.tokens).toBe(85);
    expect(p.deferred).toEqual([]);
  });
});
