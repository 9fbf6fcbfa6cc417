import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countToolTokens, createTokenCounter } from '../../src/core/tokens/index.js';
import type { ToolSnapshot } from '../../src/core/types.js';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const BASE = fixture('snapshots', 'check-base.json');
const USAGE = fixture('snapshots', 'budget-usage.json');

let dir: string;
const cli = (argv: string[]) => runCli(argv, { cwd: dir, env: { NO_COLOR: '1', HOME: dir } });

interface BudgetDoc {
  max: number;
  limit: number;
  used: number;
  fits: boolean;
  final: number;
  planFits: boolean;
  servers: { name: string; tokens: number; share: number }[];
  plan: { action: string; target: string; tokensSaved: number; after: number; tools?: string[]; calls?: number }[];
  intent?: { kept: string[] };
  notes: string[];
  unmeasured?: string[];
}
const budget = async (argv: string[]): Promise<{ code: number; doc: BudgetDoc; stderr: string }> => {
  const r = await cli(['--snapshot', BASE, 'budget', ...argv, '--json']);
  return { code: r.code, doc: JSON.parse(r.stdout) as BudgetDoc, stderr: r.stderr };
};
const saved = (d: BudgetDoc): number => d.plan.reduce((n, s) => n + s.tokensSaved, 0);

beforeEach(async () => {
  dir = tempDir('mcp-smart-budget-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('budget', () => {
  it('under budget: reports used, limit (10% of max) and per-server tokens and share; exit 0', async () => {
    const { code, doc } = await budget(['--max', '128000']);
    expect(code).toBe(0);
    expect(Object.keys(doc).slice(0, 8)).toEqual([
      'schemaVersion',
      'command',
      'max',
      'limit',
      'used',
      'fits',
      'servers',
      'plan',
    ]);
    expect(doc).toMatchObject({ max: 128000, limit: 12800, used: 807, fits: true, plan: [] });
    expect(doc.servers.map((s) => [s.name, s.tokens, s.share])).toEqual([
      ['files', 435, 435 / 128000],
      ['notes', 188, 188 / 128000],
      ['web', 184, 184 / 128000],
    ]);
  });

  it('over budget: exit 1 and a plan, least harm first, whose figures add up', async () => {
    const { code, doc, stderr } = await budget(['--max', '10000', '--limit', '600']);
    expect(code).toBe(1);
    expect(doc.fits).toBe(false);
    expect(doc.plan.map((s) => [s.action, s.target, s.tokensSaved, s.after])).toEqual([
      ['condense-lossless', '*', 60, 747],
      ['condense-compact', 'files', 73, 674],
      ['condense-compact', 'notes', 13, 661],
      ['condense-compact', 'web', 11, 650],
      ['defer', 'files', -140, 790],
      ['defer', 'notes', 175, 615],
      ['defer', 'web', 173, 442],
    ]);
    expect(doc.used - saved(doc)).toBe(doc.final);
    expect(doc.final).toBe(442);
    expect(doc.planFits).toBe(true);
    expect(stderr).toBe('');
  });

  it('the table says OVER, names the plan and notes that without usage the largest servers go first', async () => {
    const r = await cli(['--snapshot', BASE, 'budget', '--max', '10000', '--limit', '600']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('OVER: tool context uses 807 of 600 tokens allowed');
    expect(r.stdout).toContain('With this plan: 442 tokens (saves 365), fits.');
    expect(r.stderr).toContain('no usage data');
  });

  it('flags a fitting context above the 0.8 reserve threshold as near the limit', async () => {
    const r = await cli(['--snapshot', BASE, 'budget', '--max', '10000', '--limit', '1000']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'PASS: tool context uses 807 of 1,000 tokens allowed (10.0% of 10,000; o200k_base) — near the limit (80.7% of it used',
    );
  });

  it('says so when nothing fits', async () => {
    const r = await cli(['--snapshot', BASE, 'budget', '--max', '10000', '--limit', '300']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Nothing fits: with every step the tool context still needs 442 tokens (limit 300).');
    expect(r.stdout).not.toContain('Plan that fits');
    expect(r.stdout).toContain('Every step, least harm first (still over the limit):');
  });

  it('with a usage store: compacts least-used first and drops never-used tools', async () => {
    const { code, doc } = await budget(['--max', '10000', '--limit', '400', '--store', USAGE]);
    expect(code).toBe(1);
    expect(doc.plan.map((s) => [s.action, s.target, s.tokensSaved, s.tools ?? null])).toEqual([
      ['condense-lossless', '*', 60, null],
      ['condense-compact', 'web', 11, null],
      ['condense-compact', 'notes', 13, null],
      ['condense-compact', 'files', 73, null],
      ['drop-unused', 'notes', 106, ['create_note', 'delete_note']],
      ['drop-unused', 'files', 150, ['list_directory', 'search_files']],
    ]);
    expect(doc.plan.map((s) => s.calls ?? null)).toEqual([null, null, null, null, 9, 52]);
    expect(doc.used - saved(doc)).toBe(394);
    expect(doc.final).toBe(394);
  });

  it('drop-unused needs 3 recorded calls per tool of a server, and says how many there were', async () => {
    const r = await cli(['--snapshot', BASE, 'budget', '--max', '10000', '--limit', '400', '--store', USAGE]);
    expect(r.stdout).toContain('drop tools never used (9 recorded calls): create_note, delete_note');
    // web: 0 of the 6 calls its 2 tools need, so none of its tools is called unused.
    expect(r.stderr).toContain(
      'note: unused tools of web were kept: the usage store holds 0 of the 6 recorded calls to its tools that drop-unused needs (3 per tool) before it calls a tool unused',
    );
  });

  it('reads the store by the rule every ranking uses: memory relative to the newest recording, decayed by age', async () => {
    // The fixture's counts in the store format replay --learn writes, with two tools older than the newest call:
    // write_file 30 days (one half-life: its 10 calls count 5) and search_notes 100 days (past the 90-day cap).
    const T = 1735689600000;
    const DAY = 86_400_000;
    const use = (success: number, failure: number, age: number) => ({
      success,
      failure,
      lastUsed: T - age * DAY,
      categories: {},
    });
    const store = join(dir, 'usage.json');
    await writeFile(
      store,
      JSON.stringify({
        format: 'mcp-smart/usage@1',
        updatedAt: new Date(T).toISOString(),
        tools: {
          'files.read_file': use(40, 2, 0),
          'files.write_file': use(10, 0, 30),
          'notes.search_notes': use(9, 0, 100),
        },
        sessions: {},
      }),
    );
    const { doc } = await budget(['--max', '10000', '--limit', '400', '--store', store]);
    // files rests on 42 + 10 × 0.5 = 47 calls, not the 52 the counts alone give; notes has no remembered call
    // left, so its tools are not called unused (with the fixture's equal times it lost 2 of them on 9 calls).
    expect(doc.plan.filter((s) => s.action === 'drop-unused').map((s) => [s.target, s.calls, s.tools])).toEqual([
      ['files', 47, ['list_directory', 'search_files']],
    ]);
    expect(doc.notes.join('\n')).toContain(
      'unused tools of notes were kept: the usage store holds 0 of the 9 recorded calls',
    );
  });

  it('--intent ranks with the store: a remembered intent puts its tool first', async () => {
    const intent = 'jot this down for later';
    const before = await budget(['--max', '10000', '--intent', intent]);
    expect(before.doc.intent?.kept[0]).not.toBe('notes.create_note');
    const store = join(dir, 'usage.json');
    const T = 1735689600000;
    await writeFile(
      store,
      JSON.stringify({
        format: 'mcp-smart/usage@1',
        updatedAt: new Date(T).toISOString(),
        tools: { 'notes.create_note': { success: 1, failure: 0, lastUsed: T, categories: {} } },
        intents: { 'notes.create_note': [{ text: intent, count: 1, last: T }] },
        sessions: {},
      }),
    );
    const after = await budget(['--max', '10000', '--intent', intent, '--store', store]);
    expect(after.doc.intent?.kept[0]).toBe('notes.create_note');
  });

  it('a missing usage store is tolerated and reported', async () => {
    const r = await cli([
      '--snapshot',
      BASE,
      'budget',
      '--max',
      '10000',
      '--limit',
      '600',
      '--store',
      join(dir, 'none.json'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not found');
  });

  it('--intent keeps the relevant tools whole and the rest names-only', async () => {
    const { doc } = await budget(['--max', '10000', '--intent', 'read a file from disk']);
    expect(doc.intent?.kept).toContain('files.read_file');
    const namesOnly = doc.plan.filter((s) => s.action === 'names-only').flatMap((s) => s.tools ?? []);
    expect(namesOnly).not.toContain('read_file');
    expect(doc.used - saved(doc)).toBe(doc.final);
  });

  it('an --intent that matches no tool keeps none in full for it and says so; a blank one is refused', async () => {
    const plain = await budget(['--max', '10000']);
    const { doc } = await budget(['--max', '10000', '--intent', 'zzzqqq xyzzy']);
    expect(doc.intent).toBeUndefined();
    expect(doc.plan).toEqual(plain.doc.plan);
    expect(doc.notes.join('\n')).toContain('the intent "zzzqqq xyzzy" matched no tool');
    const blank = await cli(['--snapshot', BASE, 'budget', '--max', '10000', '--intent', '   ']);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('--intent');
  });

  it('--apply -o writes the resulting definitions', async () => {
    const out = join(dir, 'tools.budget.json');
    // 620: web still fits beside the meta-tools once files and notes are deferred.
    const r = await cli(['--snapshot', BASE, 'budget', '--max', '10000', '--limit', '620', '--apply', '-o', out]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(await readFile(out, 'utf8')) as {
      before: { tokens: number };
      after: { tokens: number };
      servers: { name: string; tools: { name: string }[]; defers?: string[] }[];
    };
    expect(doc.before.tokens).toBe(807);
    expect(doc.after.tokens).toBe(615);
    expect(doc.servers.map((s) => s.name)).toEqual(['web', 'mcp-smart']);
    expect(doc.servers[1]?.tools.map((t) => t.name)).toEqual([
      'find_tool',
      'describe_tool',
      'list_tools',
      'call_tool',
      'call_tool_read',
    ]);
    expect(doc.servers[1]?.defers).toEqual(['files', 'notes']);
    // The written definitions re-count to exactly the plan's final figure.
    const counter = await createTokenCounter('o200k_base');
    const recount = doc.servers
      .flatMap((s) => s.tools.map((t) => countToolTokens(t as ToolSnapshot, counter, 'json', s.name)))
      .reduce((a, b) => a + b, 0);
    expect(recount).toBe(615);
  });

  it('takes max and limit from mcp-smart.config.json when no flag is given', async () => {
    await writeFile(join(dir, 'mcp-smart.config.json'), JSON.stringify({ budget: { max: 10000, limit: 600 } }));
    const { code, doc } = await budget([]);
    expect(code).toBe(1);
    expect(doc).toMatchObject({ max: 10000, limit: 600, used: 807, final: 442 });
    const share = await budget(['--share', '0.2']);
    expect(share.doc).toMatchObject({ max: 10000, limit: 2000, fits: true });
  });

  it('with an unreachable server: over budget still exits 1 (decided), under exits 3 (undecided)', async () => {
    const snap = fixture('snapshots', 'check-unreachable.json');
    const over = await cli(['--snapshot', snap, 'budget', '--max', '10000', '--limit', '500']);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('server web could not be reached');
    const under = await cli(['--snapshot', snap, 'budget', '--max', '128000', '--json']);
    expect(under.code).toBe(3);
    // Not measured is not "fits": the JSON names the server it could not count.
    expect(JSON.parse(under.stdout) as BudgetDoc).toMatchObject({ used: 623, fits: false, unmeasured: ['web'] });
    const table = await cli(['--snapshot', snap, 'budget', '--max', '128000']);
    expect(table.stdout).not.toMatch(/^PASS/);
    expect(table.stdout).toMatch(/^INCOMPLETE: .*\nNot measured: .*\(web\)/);
  });

  it('no server reachable: never a PASS, fits false, the servers named, exit 3', async () => {
    const doc = JSON.parse(await readFile(fixture('snapshots', 'check-unreachable.json'), 'utf8')) as {
      servers: { status: string }[];
    };
    const snap = join(dir, 'none.json');
    await writeFile(snap, JSON.stringify({ ...doc, servers: doc.servers.filter((s) => s.status === 'error') }));
    const json = await cli(['--snapshot', snap, 'budget', '--max', '100000', '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout) as BudgetDoc).toMatchObject({ used: 0, fits: false, unmeasured: ['web'] });
    const table = await cli(['--snapshot', snap, 'budget', '--max', '100000']);
    expect(table.code).toBe(3);
    expect(table.stdout).not.toContain('PASS');
    expect(table.stdout).toContain('web');
  });

  it('over the limit with nothing the planner can propose: says so and what the user can do', async () => {
    const tools = Array.from({ length: 20 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
    const snap = join(dir, 'small.json');
    await writeFile(
      snap,
      JSON.stringify({
        format: 'mcp-smart/snapshot@1',
        createdAt: 'x',
        servers: [{ name: 'a', transport: 'stdio', status: 'ok', tools }],
      }),
    );
    const json = await cli(['--snapshot', snap, 'budget', '--max', '2000', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout) as BudgetDoc).toMatchObject({ fits: false, plan: [], planFits: false });
    for (const format of ['table', 'markdown']) {
      const r = await cli(['--snapshot', snap, 'budget', '--max', '2000', '--format', format]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/No plan brings it under the limit.*260 tokens.*--max.*--server/s);
    }
  });

  it('needs --max (or budget.max in config)', async () => {
    const r = await cli(['--snapshot', BASE, 'budget']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max');
  });

  it('--apply without -o is a usage error', async () => {
    const r = await cli(['--snapshot', BASE, 'budget', '--max', '1000', '--apply']);
    expect(r.code).toBe(2);
  });
});
