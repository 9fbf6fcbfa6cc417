// The find_tool answer's token budget: rank order kept, schemas left out before results, a giant schema never
// crowding out the results after it, and the count exact (the answer's lines add up to the whole text's count).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { condenseTool } from '../../src/core/condense/index.js';
import { validateSmartConfig } from '../../src/core/config/validate.js';
import { DEFAULT_WEIGHTS } from '../../src/core/discover/weights.js';
import { createTokenCounter } from '../../src/core/tokens/index.js';
import { countingWith } from '../../src/serve/deps.js';
import { ServeRuntime } from '../../src/serve/runtime.js';
import {
  DEFAULT_FIND_MAX_TOKENS,
  budgetFindAnswer,
  findMaxTokens,
  type FindCandidate,
} from '../../src/serve/find-budget.js';
import type { Snapshot, ToolSnapshot } from '../../src/core/types.js';
import { fixture } from '../helpers/paths.js';

const counters = {
  o200k_base: await createTokenCounter('o200k_base'),
  cl100k_base: await createTokenCounter('cl100k_base'),
};
const counter = counters.o200k_base;
const count = (t: string): number => counter.count(t);

const candidate = (server: string, tool: ToolSnapshot): FindCandidate => {
  const brief = { id: `${server}.${tool.name}`, summary: tool.description ?? '' };
  const schema = condenseTool(tool, 'compact').inputSchema;
  return schema ? { brief, inputSchema: schema } : { brief };
};

/** Every tool of the fixture snapshots, as find_tool candidates. */
const all: FindCandidate[] = ['many-tools.json', 'discover-tools.json', 'audit-findings.json', 'lossless-cases.json']
  .flatMap((f) => (JSON.parse(readFileSync(fixture('snapshots', f), 'utf8')) as Snapshot).servers)
  .flatMap((s) => s.tools.map((t) => candidate(s.name, t)));

/** A tool whose schema alone is far over any budget here. */
function giant(): FindCandidate {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 400; i++)
    properties[`field_${i}`] = { type: 'string', description: `The value of setting number ${i} of the widget.` };
  return {
    brief: { id: 'big.configure_widget', summary: 'Configures a widget.' },
    inputSchema: { type: 'object', properties },
  };
}

const ids = (text: string): string[] => (JSON.parse(text) as { results: { id: string }[] }).results.map((r) => r.id);

describe('find_tool answer budget', () => {
  it('the answer’s count is exactly the whole text’s count, for every budget and both encodings', () => {
    expect(all.length).toBeGreaterThan(20);
    for (const [name, c] of Object.entries(counters)) {
      for (let start = 0; start + 5 <= all.length; start += 5) {
        for (const max of [100, 300, 800, 1500, 5000]) {
          const a = budgetFindAnswer(all.slice(start, start + 5), max, (t) => c.count(t));
          expect({ name, start, max, tokens: c.count(a.text) }).toEqual({ name, start, max, tokens: a.tokens });
          expect(a.tokens).toBeLessThanOrEqual(max);
        }
      }
    }
  });

  it('a schema kept as JSON (as serve keeps it per tool) gives the same answer, byte for byte, at every budget', () => {
    const kept = all.map((c) => (c.inputSchema ? { ...c, schemaJson: JSON.stringify(c.inputSchema) } : c));
    for (let start = 0; start + 5 <= all.length; start += 5)
      for (const max of [100, 300, 800, 1500, 100_000]) {
        const plain = budgetFindAnswer(all.slice(start, start + 5), max, count);
        expect(budgetFindAnswer(kept.slice(start, start + 5), max, count)).toEqual(plain);
        // The text is what JSON.stringify of each result makes: parsing it gives the briefs and schemas back.
        const doc = JSON.parse(plain.text) as { results: Record<string, unknown>[] };
        expect(doc.results).toHaveLength(plain.listed);
      }
    // A stale or foreign schemaJson would show: the line holds the kept text, not a fresh stringify.
    const odd = { ...all.find((c) => c.inputSchema)!, schemaJson: '{"type":"object","x":1}' };
    const answer = JSON.parse(budgetFindAnswer([odd], 100_000, count).text) as { results: { inputSchema: unknown }[] };
    expect(answer.results[0]!.inputSchema).toEqual({ type: 'object', x: 1 });
  });

  it('lines kept between answers (as serve keeps them per candidate) give the same answers, and a miss is not kept', () => {
    const kept: FindCandidate[] = all.map((c) => ({ ...c, kept: { text: [], cost: [] } }));
    const counted: string[] = [];
    const counting = (t: string): number => (counted.push(t), count(t));
    // The same candidates in other orders and budgets, answer after answer: each as without kept lines.
    for (let round = 0; round < 3; round++)
      for (let start = 0; start + 5 <= all.length; start += 3)
        for (const max of [100, 300, 800, 100_000]) {
          const order = round === 1 ? [4, 3, 2, 1, 0] : [0, 1, 2, 3, 4];
          const pick = (xs: FindCandidate[]) => order.map((i) => xs[start + i]!);
          expect(budgetFindAnswer(pick(kept), max, counting)).toEqual(budgetFindAnswer(pick(all), max, count));
        }
    // Once each line was counted, a candidate's lines are not counted again (only the answer's head and tail are).
    counted.length = 0;
    budgetFindAnswer(kept.slice(0, 5), 100_000, counting);
    expect(counted.filter((t) => t.includes('"id"'))).toEqual([]);
    // A miss (a count of 0: the tokenizer not loaded yet) is asked again next time, not kept: the same counter,
    // once loaded, gives the exact answer.
    const fresh: FindCandidate = { ...all[0]!, kept: { text: [], cost: [] } };
    let loaded = false;
    const lazy = (t: string): number => (!loaded && t.includes('"id"') ? 0 : count(t));
    budgetFindAnswer([fresh], 100_000, lazy);
    loaded = true;
    expect(budgetFindAnswer([fresh], 100_000, lazy)).toEqual(budgetFindAnswer([all[0]!], 100_000, count));
    // Counts kept for one counter are not used by another (cl100k counts differ).
    const cl = (t: string): number => counters.cl100k_base.count(t);
    expect(budgetFindAnswer([fresh], 100_000, cl)).toEqual(budgetFindAnswer([all[0]!], 100_000, cl));
  });

  it('with room for everything: every result with its schema, in rank order, no note', () => {
    const five = all.slice(0, 5);
    const a = budgetFindAnswer(five, 100_000, count);
    const doc = JSON.parse(a.text) as { results: Record<string, unknown>[]; note?: string };
    expect(doc.results).toEqual(
      five.map((c) => (c.inputSchema ? { ...c.brief, inputSchema: c.inputSchema } : c.brief)),
    );
    expect(doc.note).toBeUndefined();
    expect(a.withoutSchema).toEqual([]);
  });

  it('a schema too big for the budget is left out of its result; the results after it keep theirs', () => {
    const big = giant();
    expect(count(JSON.stringify(big.inputSchema))).toBeGreaterThan(DEFAULT_FIND_MAX_TOKENS);
    const rest = all.filter((c) => c.inputSchema !== undefined).slice(0, 4);
    const a = budgetFindAnswer([big, ...rest], DEFAULT_FIND_MAX_TOKENS, count);
    expect(a.tokens).toBeLessThanOrEqual(DEFAULT_FIND_MAX_TOKENS);
    expect(ids(a.text)).toEqual([big, ...rest].map((c) => c.brief.id));
    const doc = JSON.parse(a.text) as { results: Record<string, unknown>[]; note: string };
    expect(doc.results[0]).toEqual(big.brief);
    expect(doc.results.slice(1).every((r) => r.inputSchema !== undefined)).toBe(true);
    expect(doc.note).toContain('call describe_tool with the id for big.configure_widget');
  });

  it('a tight budget drops schemas first (lowest ranks first), then results from the end, and says so', () => {
    const five = all.filter((c) => c.inputSchema !== undefined).slice(0, 5);
    const briefOnly = budgetFindAnswer(five, 0, count); // nothing fits: the floor of the answer
    expect(briefOnly.listed).toBe(0);
    const sizes = [80, 100, 150, 250, 400];
    const answers = sizes.map((max) => budgetFindAnswer(five, max, count));
    answers.forEach((a, i) => {
      expect(a.tokens).toBeLessThanOrEqual(sizes[i]!);
      // Always a prefix of the ranking.
      expect(ids(a.text)).toEqual(five.slice(0, a.listed).map((c) => c.brief.id));
      const shown = five.slice(0, a.listed).map((c) => String(c.brief.id));
      const withSchema = shown.filter((id) => !a.withoutSchema.includes(id));
      const note = (JSON.parse(a.text) as { note?: string }).note ?? '';
      if (a.listed < five.length) expect(note).toContain(`${five.length - a.listed} lower-ranked result`);
      if (a.withoutSchema.length > 0) expect(note).toContain(a.withoutSchema.join(', '));
      // A result is only dropped once no listed result keeps a schema.
      if (a.listed < five.length) expect(withSchema).toEqual([]);
    });
    // More room never lists fewer results or fewer schemas.
    for (let i = 1; i < answers.length; i++) {
      expect(answers[i]!.listed).toBeGreaterThanOrEqual(answers[i - 1]!.listed);
      expect(answers[i]!.listed - answers[i]!.withoutSchema.length).toBeGreaterThanOrEqual(
        answers[i - 1]!.listed - answers[i - 1]!.withoutSchema.length,
      );
    }
    expect(answers[0]!.listed).toBeLessThan(five.length);
  });

  it('maxTokens: the call’s wins over the config’s, whole numbers of at least 100; default 1,500', () => {
    expect(findMaxTokens(undefined, undefined)).toBe(1500);
    expect(findMaxTokens(undefined, 4000)).toBe(4000);
    expect(findMaxTokens(800, 4000)).toBe(800);
    expect(findMaxTokens(20, undefined)).toBe(100);
    expect(findMaxTokens(640.7, undefined)).toBe(640);
    expect(findMaxTokens('900', 2000)).toBe(2000);
  });

  it('serve.findToolMaxTokens in mcp-smart.config.json: accepted from 100, else an issue naming the key', () => {
    expect(validateSmartConfig({ serve: { findToolMaxTokens: 3000 } }, DEFAULT_WEIGHTS)).toEqual({
      config: { serve: { findToolMaxTokens: 3000 } },
      issues: [],
    });
    const bad = validateSmartConfig({ serve: { findToolMaxTokens: 50 } }, DEFAULT_WEIGHTS);
    expect(bad.issues.map((i) => i.key)).toEqual(['serve.findToolMaxTokens']);
    expect(JSON.stringify(bad.issues)).toContain('at least 100');
  });

  it('find_tool in serve: within the config’s budget, a call’s maxTokens overrides it, the ranking the same', async () => {
    const servers = (JSON.parse(readFileSync(fixture('snapshots', 'many-tools.json'), 'utf8')) as Snapshot).servers;
    const runtime = (findToolMaxTokens?: number) =>
      new ServeRuntime({
        setup: {
          definitions: [],
          known: new Map(servers.map((s) => [s.name, s])),
          config: findToolMaxTokens ? { serve: { findToolMaxTokens } } : {},
          warnings: [],
          cache: null,
          usageStore: '/nonexistent/usage.json',
          fromSnapshot: true,
        },
        mode: 'meta',
        level: 'lossless',
        limit: 20_000,
        key: 'mcp-smart',
        activate: false,
        counting: countingWith(counter),
        usage: { tools: {} },
        learn: false,
        spawnTimeoutMs: 1000,
        callTimeoutMs: 1000,
        log: () => undefined,
        now: () => 0,
        clock: () => 0,
      });
    const textOf = (r: Record<string, unknown>): string => (r.content as { text: string }[])[0]!.text;
    const intent = 'search for a file by name';
    const roomy = runtime(100_000);
    await roomy.init();
    const wide = textOf(await roomy.findTool({ intent, k: 8 }));
    expect(JSON.parse(wide)).not.toHaveProperty('note');
    const tight = runtime(200);
    await tight.init();
    const small = textOf(await tight.findTool({ intent, k: 8 }));
    expect(count(small)).toBeLessThanOrEqual(200);
    expect(count(wide)).toBeGreaterThan(200);
    // The same ranking, cut to fit: a prefix of the roomy answer's ids.
    expect(ids(wide).slice(0, ids(small).length)).toEqual(ids(small));
    const perCall = textOf(await tight.findTool({ intent, k: 8, maxTokens: 100_000 }));
    expect(perCall).toBe(wide);
  });
});

describe('find_tool names the servers that have not started', () => {
  it('after the results, within the budget, with the count exact', () => {
    const unstarted = [{ server: 'flaky', reason: 'exited with code 1: Error: API_URL is not set', retryInSeconds: 8 }];
    for (const max of [300, 800, 1500]) {
      const answer = budgetFindAnswer(all.slice(0, 12), max, count, unstarted);
      expect(answer.tokens).toBeLessThanOrEqual(max);
      expect(count(answer.text)).toBe(answer.tokens);
      expect((JSON.parse(answer.text) as { notStarted: unknown }).notStarted).toEqual(unstarted);
      // The note takes room from the results, never the other way round.
      expect(answer.listed).toBeLessThanOrEqual(budgetFindAnswer(all.slice(0, 12), max, count).listed);
    }
    expect(JSON.parse(budgetFindAnswer(all.slice(0, 3), 1500, count).text)).not.toHaveProperty('notStarted');
  });
});
