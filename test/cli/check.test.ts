import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const BASE = fixture('snapshots', 'check-base.json');
const GROWN = fixture('snapshots', 'check-grown.json');
const SHRUNK = fixture('snapshots', 'check-shrunk.json');
const ADDED = fixture('snapshots', 'check-added.json');
const INTENTS = fixture('snapshots', 'check-intents.jsonl');

let dir: string;
let home: string;
const env = (): Record<string, string> => ({ NO_COLOR: '1', HOME: home });
const cli = (argv: string[], extraEnv: Record<string, string> = {}) =>
  runCli(argv, { cwd: dir, env: { ...env(), ...extraEnv } });

beforeEach(async () => {
  dir = tempDir('mcp-smart-check-');
  home = tempDir('mcp-smart-home-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

describe('check --update', () => {
  it('writes a sorted, timestamp-free baseline and is byte-identical on a second run', async () => {
    const first = await cli(['--snapshot', BASE, 'check', '--update']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Baseline mcp-smart.lock.json written: 3 servers, 807 tokens (o200k_base).');
    const text = await readFile(join(dir, 'mcp-smart.lock.json'), 'utf8');
    const doc = JSON.parse(text) as {
      format: string;
      encoding: string;
      servers: Record<string, { tokens: number; tools: Record<string, { tokens: number; hash: string }> }>;
      thresholds: object;
    };
    expect(doc.format).toBe('mcp-smart/baseline@1');
    expect(doc.encoding).toBe('o200k_base');
    expect(doc.thresholds).toEqual({ maxGrowth: '5%' });
    expect(Object.fromEntries(Object.entries(doc.servers).map(([k, v]) => [k, v.tokens]))).toEqual({
      files: 435,
      notes: 188,
      web: 184,
    });
    expect(doc.servers.files?.tools.read_file?.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(text).not.toContain('createdAt');
    const second = await cli(['--snapshot', BASE, 'check', '--update']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('is up to date');
    expect(await readFile(join(dir, 'mcp-smart.lock.json'), 'utf8')).toBe(text);
  });
});

describe('check --update on a baseline it cannot read', () => {
  const lock = (): string => join(dir, 'mcp-smart.lock.json');

  it('a merge conflict left in our baseline: check names the fix, and check --update writes it anew', async () => {
    expect((await cli(['--snapshot', BASE, 'check', '--update'])).code).toBe(0);
    const good = await readFile(lock(), 'utf8');
    await writeFile(lock(), `<<<<<<< HEAD\n${good}=======\n${good}>>>>>>> other\n`);
    const gate = await cli(['--snapshot', BASE, 'check']);
    expect(gate.code).toBe(2);
    expect(gate.stderr).toContain('Recreate it with: mcp-smart check --update');
    // The fix it names works (it used to fail with the same error).
    const fixed = await cli(['--snapshot', BASE, 'check', '--update']);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).toContain('the baseline could not be read');
    expect(await readFile(lock(), 'utf8')).toBe(good);
    expect((await cli(['--snapshot', BASE, 'check'])).code).toBe(0);
  });

  it('a file that is not a baseline is refused by check and check --update alike, and kept', async () => {
    for (const text of ['my notes\n', '{"numStartups": 3}\n']) {
      await writeFile(lock(), text);
      for (const argv of [['check'], ['check', '--update']]) {
        const r = await cli(['--snapshot', BASE, ...argv]);
        expect(r.code, argv.join(' ')).toBe(2);
        expect(r.stderr).toContain('It is not an mcp-smart baseline');
        expect(r.stderr).not.toContain('Recreate it with');
      }
      expect(await readFile(lock(), 'utf8')).toBe(text);
    }
  });
});

describe('check', () => {
  beforeEach(async () => {
    expect((await cli(['--snapshot', BASE, 'check', '--update'])).code).toBe(0);
  });

  it('passes against an unchanged setup', async () => {
    const r = await cli(['--snapshot', BASE, 'check']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('PASS: tool tokens 807 → 807');
    expect(r.stdout).toContain('No tool changed.');
  });

  it('a tool whose description grows fails, naming the tool and the delta', async () => {
    const r = await cli(['--snapshot', GROWN, 'check']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL: tool tokens 807 → 876, +69 (+8.6%)');
    expect(r.stdout).toContain('Largest growth: files.read_file +69');
    expect(r.stdout).toMatch(/files\.read_file\s*│\s*changed\s*│\s*116\s*│\s*185\s*│\s*\+69 \(\+59\.5%\)/);
  });

  it('a shrinking tool passes', async () => {
    const r = await cli(['--snapshot', SHRUNK, 'check', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(doc).slice(0, 6)).toEqual([
      'schemaVersion',
      'command',
      'baseline',
      'passed',
      'totals',
      'changes',
    ]);
    expect(doc).toMatchObject({
      schemaVersion: 1,
      command: 'check',
      baseline: 'mcp-smart.lock.json',
      passed: true,
      totals: { before: 807, after: 776, delta: -31 },
      changes: [{ id: 'files.read_file', kind: 'changed', before: 116, after: 85, delta: -31 }],
    });
  });

  it('--max-growth in tokens lets the same growth pass; --max fails on the absolute size', async () => {
    expect((await cli(['--snapshot', GROWN, 'check', '--max-growth', '100'])).code).toBe(0);
    const r = await cli(['--snapshot', BASE, 'check', '--max', '800', '--json']);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as { failures: { code: string }[] }).failures.map((f) => f.code)).toEqual([
      'OVER_MAX',
    ]);
  });

  it('lists added tools', async () => {
    const r = await cli(['--snapshot', ADDED, 'check', '--json']);
    const doc = JSON.parse(r.stdout) as { changes: { id: string; kind: string; delta: number }[]; passed: boolean };
    expect(doc.changes).toEqual([expect.objectContaining({ id: 'notes.tag_note', kind: 'added', before: 0 })]);
    expect(r.code).toBe(doc.passed ? 0 : 1);
  });

  it('--format github: a check that cannot run (no baseline) is an ::error annotation too, exit 2', async () => {
    // The generated workflow runs `check --format github`: the reason shows on the run and the PR, not only in the log.
    const none = join(dir, 'none.lock.json');
    const r = await cli(['--snapshot', GROWN, '--format', 'github', 'check', '--baseline', none]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^::error title=mcp-smart BASELINE_MISSING::No baseline at /m);
    expect(r.stderr).toContain('No baseline at');
    const json = await cli(['--snapshot', GROWN, '--json', 'check', '--baseline', none]);
    expect(json.stdout).not.toContain('::error');
  });

  it('--format github prints annotations and appends markdown to $GITHUB_STEP_SUMMARY', async () => {
    const summary = join(dir, 'summary.md');
    await writeFile(summary, 'before\n');
    const r = await cli(['--snapshot', GROWN, '--format', 'github', 'check'], { GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^::error file=mcp-smart\.lock\.json,title=mcp-smart TOTAL_GROWTH::tool tokens grew by 69 \(\+8\.6%25\)/m,
    );
    expect(r.stdout).toMatch(
      /^::warning file=mcp-smart\.lock\.json,title=mcp-smart TOOL_GROWTH::files\.read_file grew by 69 tokens/m,
    );
    const md = await readFile(summary, 'utf8');
    expect(md.startsWith('before\n### mcp-smart check: ❌ FAIL')).toBe(true);
    expect(md).toContain('| files.read_file | changed | 116 | 185 | +69 (+59.5%) |');
  });

  it('a $GITHUB_STEP_SUMMARY that cannot be written is a warning: the gate keeps its own exit code', async () => {
    const missing = join(dir, 'no-such-folder', 'summary.md');
    const failing = await cli(['--snapshot', GROWN, '--format', 'github', 'check'], { GITHUB_STEP_SUMMARY: missing });
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/^::error .*TOTAL_GROWTH/m);
    expect(failing.stderr).toContain(`GITHUB_STEP_SUMMARY=${missing} (ENOENT)`);
    const passing = await cli(['--snapshot', SHRUNK, '--format', 'github', 'check'], { GITHUB_STEP_SUMMARY: dir });
    expect(passing.code).toBe(0);
    expect(passing.stderr).toContain('the job summary was not written');
  });

  it('--format markdown renders a PR comment', async () => {
    const r = await cli(['--snapshot', SHRUNK, '--format', 'markdown', 'check']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('### mcp-smart check: ✅ PASS');
    expect(r.stdout).toContain('| tool | change | before | after | delta |');
  });

  it('recounts with the baseline encoding when the run asks for another', async () => {
    const r = await cli(['--snapshot', BASE, '--encoding', 'cl100k_base', 'check']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("counting with the baseline's encoding o200k_base (this run asked for cl100k_base)");
  });

  it('a missing baseline exits 2 and says what to run', async () => {
    const r = await cli(['--snapshot', BASE, 'check', '--baseline', 'nope.lock.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'No baseline at nope.lock.json. Create one with: mcp-smart check --update --baseline nope.lock.json',
    );
    const j = await cli(['--snapshot', BASE, 'check', '--baseline', 'nope.lock.json', '--json']);
    expect(JSON.parse(j.stdout)).toMatchObject({ error: { code: 'BASELINE_MISSING' } });
    // The fix it names writes the file the gate then reads.
    expect((await cli(['--snapshot', BASE, 'check', '--update', '--baseline', 'nope.lock.json'])).code).toBe(0);
    expect((await cli(['--snapshot', BASE, 'check', '--baseline', 'nope.lock.json'])).code).toBe(0);
  });

  it('--update with --server keeps the other servers of the baseline', async () => {
    const r = await cli(['--snapshot', GROWN, '-s', 'files', 'check', '--update']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(await readFile(join(dir, 'mcp-smart.lock.json'), 'utf8')) as {
      servers: Record<string, { tokens: number }>;
    };
    expect(Object.fromEntries(Object.entries(doc.servers).map(([k, v]) => [k, v.tokens]))).toEqual({
      files: 504,
      notes: 188,
      web: 184,
    });
    expect((await cli(['--snapshot', GROWN, 'check'])).code).toBe(0);
  });

  it('an unreachable server of the baseline is left out of the totals and fails the gate (issue 36: exit 1)', async () => {
    const ok = await cli(['--snapshot', fixture('snapshots', 'check-unreachable.json'), 'check', '--json']);
    expect(ok.code).toBe(1);
    const doc = JSON.parse(ok.stdout) as {
      missing: { server: string; reason: string }[];
      failures: { code: string }[];
    };
    expect(doc).toMatchObject({
      passed: false,
      unavailable: ['web'],
      totals: { before: 623, after: 623, delta: 0 },
      changes: [],
    });
    expect(doc.missing.map((m) => [m.server, m.reason])).toEqual([['web', 'failed']]);
    expect(doc.failures.map((f) => f.code)).toEqual(['SERVER_MISSING']);
    const bad = await cli(['--snapshot', fixture('snapshots', 'check-grown-unreachable.json'), 'check']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('server web could not be reached');
  });

  it('a bad --max-growth is a usage error naming the flag', async () => {
    const r = await cli(['--snapshot', BASE, 'check', '--max-growth', 'lots']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-growth');
  });

  it('--max 0 is refused as the baseline and the config refuse it, so --update never writes a baseline check rejects', async () => {
    const r = await cli(['--snapshot', BASE, 'check', '--update', '--max', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max');
    expect((await cli(['--snapshot', BASE, 'check'])).code).toBe(0);
  });

  it('a minRecall from the config without --queries is named as not checked', async () => {
    await writeFile(join(dir, 'mcp-smart.config.json'), JSON.stringify({ thresholds: { minRecall: 0.9 } }));
    const r = await cli(['--snapshot', BASE, 'check']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('thresholds.minRecall 0.9 (from the config) was not checked');
    const measured = await cli(['--snapshot', BASE, 'check', '--queries', INTENTS]);
    expect(measured.stderr).not.toContain('was not checked');
  });
});

describe('check retrieval gate', () => {
  beforeEach(async () => {
    expect((await cli(['--snapshot', BASE, 'check', '--update'])).code).toBe(0);
  });

  it('prints hybrid Recall@k and passes at or above the minimum', async () => {
    const r = await cli([
      '--snapshot',
      BASE,
      'check',
      '--queries',
      INTENTS,
      '--min-recall',
      '0.8',
      '-k',
      '5',
      '--json',
    ]);
    const doc = JSON.parse(r.stdout) as { retrieval: { recall: number; k: number; cases: number; passed: boolean } };
    expect(doc.retrieval).toMatchObject({ k: 5, cases: 9, passed: true });
    expect(doc.retrieval.recall).toBe(1);
    expect(r.code).toBe(0);
  });

  it('fails when recall falls below the minimum', async () => {
    const bad = join(dir, 'bad.jsonl');
    await writeFile(
      bad,
      `${JSON.stringify({ intent: 'read a file', expected: ['files.read_file'] })}\n${JSON.stringify({ intent: 'launch the rocket', expected: ['space.launch'] })}\n`,
    );
    const r = await cli(['--snapshot', BASE, 'check', '--queries', bad, '--min-recall', '0.9', '-k', '5']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL: hybrid Recall@5 0.500 (minimum 0.9)');
  });

  it('warns about expected ids not among the tools, lists the misses and refuses an empty file, as discover --queries', async () => {
    const file = join(dir, 'typo.jsonl');
    await writeFile(
      file,
      `${JSON.stringify({ intent: 'read a file', expected: ['files.read_file'] })}\n${JSON.stringify({ intent: 'read a file', expected: ['files.read_fiel'] })}\n`,
    );
    const r = await cli(['--snapshot', BASE, 'check', '--queries', file, '-k', '5', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('1 expected id not among the loaded tools, scored as misses: files.read_fiel');
    const doc = JSON.parse(r.stdout) as { retrieval: Record<string, unknown> };
    expect(doc.retrieval).toMatchObject({ missCount: 1, unknownExpected: ['files.read_fiel'] });
    expect(doc.retrieval.misses).toEqual([
      { intent: 'read a file', expected: ['files.read_fiel'], top: expect.any(Array) },
    ]);
    const text = await cli(['--snapshot', BASE, 'check', '--queries', file, '-k', '5']);
    expect(text.stdout).toContain(
      '1 intent missed the top 5:\n  "read a file": expected files.read_fiel; ranked first: ',
    );
    const empty = join(dir, 'empty.jsonl');
    await writeFile(empty, '\n\n');
    const refused = await cli(['--snapshot', BASE, 'check', '--queries', empty]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('empty.jsonl');
    expect(refused.stderr).toContain('no labelled intent');
  });

  it('scores the tools serve would serve: a tool the serve section disables is no hit, as in discover', async () => {
    const file = join(dir, 'read.jsonl');
    await writeFile(file, `${JSON.stringify({ intent: 'read a file', expected: ['files.read_file'] })}\n`);
    const shown = await cli(['--snapshot', BASE, 'check', '--queries', file, '-k', '5', '--json']);
    expect((JSON.parse(shown.stdout) as { retrieval: { recall: number } }).retrieval.recall).toBe(1);
    await writeFile(
      join(dir, 'mcp-smart.config.json'),
      JSON.stringify({ serve: { servers: { files: { disable: ['read_file'] } } } }),
    );
    const hidden = await cli(['--snapshot', BASE, 'check', '--queries', file, '-k', '5', '--json']);
    expect(hidden.stderr).toContain('1 expected id not among the loaded tools, scored as misses: files.read_file');
    const doc = JSON.parse(hidden.stdout) as { retrieval: { recall: number; unknownExpected: string[] } };
    expect(doc.retrieval).toMatchObject({ recall: 0, unknownExpected: ['files.read_file'] });
  });
});
