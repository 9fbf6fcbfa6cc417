import { describe, expect, it } from 'vitest';
import { checkBudget, planBudget, type PlanDeps } from '../../src/core/budget/index.js';
import type { ToolSnapshot, UsageStats } from '../../src/types.js';

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
