import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';
import { parseConfigText } from '../../src/core/config/parse.js';

const SNAP = fixture('snapshots', 'replay-demo.json');
const SESSIONS = fixture('sessions');
const tmp = (): string => tempDir('mcp-smart-replay-');
const env = (cwd: string): Record<string, string> => ({
  NO_COLOR: '1',
  MCP_SMART_CACHE_DIR: join(cwd, 'cache'),
  MCP_SMART_DATA_DIR: join(cwd, 'data'),
});
const replay = (cwd: string, ...args: string[]) =>
  runCli(['--snapshot', SNAP, '--json', 'replay', SESSIONS, ...args], { cwd, env: env(cwd) });

describe('replay (fixtures/sessions against fixtures/snapshots/replay-demo.json)', () => {
  it('scores every engine, counts unknown tools and reports malformed lines on stderr', async () => {
    const cwd = tmp();
    const r = await replay(cwd);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      schemaVersion: 1,
      command: 'replay',
      sessions: 12,
      tools: 37,
      unknownTools: ['github.create_issue'],
      unknownCalls: 1,
    });
    expect(doc.cases).toBe(139); // the call cut off at the end of a Cline task is not a case
    expect(doc.engines.map((e: { engine: string }) => e.engine)).toEqual(['keyword', 'bm25', 'semantic', 'hybrid']);
    for (const e of doc.engines) {
      expect(Object.keys(e.recallAt)).toEqual(['1', '3', '5']);
      expect(e.recallAt['1']).toBeLessThanOrEqual(e.recallAt['5']);
      expect(e.mrr).toBeGreaterThan(0);
    }
    const hybrid = doc.engines.find((e: { engine: string }) => e.engine === 'hybrid');
    expect(hybrid.perServer.map((s: { server: string }) => s.server)).toEqual([
      'everything',
      'filesystem',
      'github',
      'memory',
      'sequential-thinking',
    ]);
    expect(doc.tokens.k).toBe(5);
    expect(doc.tokens.all).toBeGreaterThan(doc.tokens.topK);
    expect(doc.problems).toHaveLength(6);
    expect(r.stderr).toMatch(/-home-dev-acme-api\/[0-9a-f-]+\.jsonl:\d+: not valid JSON/);
    expect(r.stderr).toContain('1 call to 1 tool not in the loaded servers');
  });

  it('names a server of the snapshot that could not be reached, with exit 3', async () => {
    const cwd = tmp();
    const unreachable = fixture('snapshots', 'check-unreachable.json');
    const intents = join(cwd, 'intents.jsonl');
    writeFileSync(intents, JSON.stringify({ intent: 'read a file', expected: ['files.read_file'] }) + '\n');
    const r = await runCli(['--snapshot', unreachable, 'replay', intents], { cwd, env: env(cwd) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('warning: server web could not be reached (spawn web-server ENOENT)');
  });

  it('--write into a config with comments and trailing commas keeps them: every command reads it so', async () => {
    // The write read the file as strict JSON and failed after the whole tune ("is not valid JSON").
    const cwd = tmp();
    const file = join(cwd, 'mcp-smart.config.json');
    writeFileSync(file, '{\n  // the team window\n  "budget": { "max": 100000 },\n}\n');
    const r = await replay(cwd, '--tune', '--write', '--folds', '2');
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// the team window');
    const config = parseConfigText(file, text) as { budget: unknown; weights: unknown };
    expect(config.budget).toEqual({ max: 100000 });
    expect(config.weights).toEqual(JSON.parse(r.stdout).tuned.weights);
    // With no config yet, --write makes one that ends with a newline, as every file written whole does.
    const fresh = tmp();
    expect((await replay(fresh, '--tune', '--write', '--folds', '2')).code).toBe(0);
    expect(readFileSync(join(fresh, 'mcp-smart.config.json'), 'utf8').endsWith('}\n')).toBe(true);
  });

  it('--tune cross-validates by session, beats the defaults held out, and --write keeps other config keys', async () => {
    const cwd = tmp();
    writeFileSync(
      join(cwd, 'mcp-smart.config.json'),
      JSON.stringify({ thresholds: { minRecall: 0.5 }, weights: { fusion: { usage: 0.3 } } }, null, 2),
    );
    const r = await replay(cwd, '--tune', '--write', '--folds', '4', '--seed', '2');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.tuned.folds).toHaveLength(4);
    expect(doc.tuned.heldOutMrr).toBeGreaterThan(doc.tuned.baselineHeldOutMrr);
    const gain = doc.tuned.heldOutGain;
    expect(gain.mean).toBeCloseTo(doc.tuned.heldOutMrr - doc.tuned.baselineHeldOutMrr, 3);
    expect(gain.low).toBeLessThanOrEqual(gain.mean);
    expect(gain.high).toBeGreaterThanOrEqual(gain.mean);
    const hybrid = doc.engines.find((e: { engine: string }) => e.engine === 'hybrid');
    expect(doc.tuned.hybrid.recallAt['5']).toBeGreaterThanOrEqual(hybrid.recallAt['5']);
    const config = JSON.parse(readFileSync(join(cwd, 'mcp-smart.config.json'), 'utf8'));
    expect(config.thresholds).toEqual({ minRecall: 0.5 });
    expect(config.weights).toEqual(doc.tuned.weights);
    expect(Object.keys(config.weights).sort()).toEqual(['bm25', 'fusion', 'usage']);
    // Reproducible: same seed and starting weights (the config's usage 0.3 is the default) → same result.
    const again = JSON.parse((await replay(tmp(), '--tune', '--folds', '4', '--seed', '2')).stdout);
    expect(again.tuned.weights).toEqual(doc.tuned.weights);
    expect(again.tuned.heldOutMrr).toBe(doc.tuned.heldOutMrr);
  });

  it('--tune prints the held-out gain with its interval, and says so when the interval reaches 0', async () => {
    // Two settings; on today's fixtures the second one's interval reaches 0 (either way the message must agree).
    for (const [folds, seed] of [
      ['2', '2'],
      ['3', '3'],
    ] as const) {
      const cwd = tmp();
      const r = await runCli(['--snapshot', SNAP, 'replay', SESSIONS, '--tune', '--folds', folds, '--seed', seed], {
        cwd,
        env: env(cwd),
      });
      expect(r.code).toBe(0);
      const m = new RegExp(
        `Tuned: held-out MRR (\\d\\.\\d{3}) vs (\\d\\.\\d{3}) before \\(${folds}-fold by session; gain ([+-]\\d\\.\\d{3}), 95 % interval ([+-]\\d\\.\\d{3}) to ([+-]\\d\\.\\d{3})\\)`,
      ).exec(r.stdout);
      expect(m, r.stdout).not.toBeNull();
      const [tuned, before, gain, low, high] = m!.slice(1).map(Number) as [number, number, number, number, number];
      expect(gain).toBeCloseTo(tuned - before, 2);
      expect(low).toBeLessThanOrEqual(gain);
      expect(high).toBeGreaterThanOrEqual(gain);
      expect(r.stdout.includes('The interval reaches 0')).toBe(low <= 0);
    }
  });

  it('--min-recall gates on hybrid Recall@5', async () => {
    const cwd = tmp();
    const low = await replay(cwd, '--min-recall', '0.3');
    expect(low.code).toBe(0);
    expect(JSON.parse(low.stdout).minRecall.passed).toBe(true);
    const high = await replay(cwd, '--min-recall', '0.99');
    expect(high.code).toBe(1);
    expect(JSON.parse(high.stdout).minRecall).toMatchObject({ required: 0.99, passed: false });
  });

  it('--learn fills the store once per session, idempotently', async () => {
    const cwd = tmp();
    const store = join(cwd, 'store.json');
    const first = JSON.parse((await replay(cwd, '--learn', '--store', store, '--ttl-days', '0')).stdout);
    // One case calls only a tool the snapshot lacks: left for a later run, not counted as learned.
    expect(first.learned).toMatchObject({ store, cases: 138, alreadyLearned: 0, notLearned: 1, expired: 0 });
    const doc = JSON.parse(readFileSync(store, 'utf8'));
    expect(doc.tools['filesystem.read_text_file'].failure).toBe(1);
    expect(doc.tools['filesystem.read_text_file'].categories.file_operation).toBeGreaterThan(0);
    const second = JSON.parse((await replay(cwd, '--learn', '--store', store, '--ttl-days', '0')).stdout);
    expect(second.learned).toMatchObject({ cases: 0, alreadyLearned: 138, notLearned: 1 });
    expect(JSON.parse(readFileSync(store, 'utf8')).tools).toEqual(doc.tools);
  });

  it('--learn measures memory from the newest recording, not today; replay then starts from the store', async () => {
    const cwd = tmp();
    const r = await replay(cwd, '--learn', '--ttl-days', '7');
    const learned = JSON.parse(r.stdout);
    // The recordings are from September 2025: a wall-clock cut would keep nothing. 7 days before the newest
    // recording keeps the tools used in the recordings' last week (the default, the store's 90 days, keeps all).
    expect(learned.learned.store).toBe(join(cwd, 'data', 'usage.json'));
    // 28: github.create_issue, called once in the recordings, is in no loaded server, so it is not learned.
    expect(learned.learned.tools).toBe(28);
    expect(learned.startedFrom).toBeUndefined();
    expect(r.stderr).toMatch(/4 tools last used more than 7 days before the newest recording were not kept/);
    const store = JSON.parse(readFileSync(join(cwd, 'data', 'usage.json'), 'utf8'));
    expect(Object.values(store.intents).flat().length).toBeGreaterThan(50);
    // Intents are remembered from every format: Claude Code, Cline, Roo and labelled intents.
    const texts = (id: string): string[] => (store.intents[id] as { text: string }[]).map((r) => r.text);
    expect(texts('filesystem.read_multiple_files')).toContain('Compare the staging and production env examples');
    expect(texts('filesystem.create_directory')).toContain(
      'Create a folder docs/adr for architecture decision records',
    );
    expect(texts('memory.read_graph')).toContain('Show me the whole knowledge graph you have stored');
    expect(texts('filesystem.read_text_file')).toContain('Open the file src/index.ts and show me its contents');
    // Replaying again starts from what the store knows, and says that it already learned these sessions.
    const again = await replay(cwd, '--ttl-days', '7');
    const doc = JSON.parse(again.stdout);
    expect(doc.startedFrom).toMatchObject({ tools: 28, alreadyLearnedSessions: 12 });
    expect(again.stderr).toMatch(/has already learned 12 replayed sessions.*--no-store/);
    const hybrid = (d: { engines: { engine: string; mrr: number }[] }) => d.engines.find((e) => e.engine === 'hybrid')!;
    expect(hybrid(doc).mrr).toBeGreaterThan(hybrid(learned).mrr);
    // --no-store replays from nothing: the first run's figures.
    const fresh = JSON.parse((await replay(cwd, '--no-store', '--ttl-days', '7')).stdout);
    expect(fresh.startedFrom).toBeUndefined();
    expect(hybrid(fresh).mrr).toBe(hybrid(learned).mrr);
    const both = await replay(cwd, '--no-store', '--learn');
    expect(both.code).toBe(2);
    expect(both.stdout).toMatch(/--no-store/);
  });

  it('--write stores the weights in the mcp-smart config given with --config, not in ./mcp-smart.config.json', async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, 'team'));
    const file = join(cwd, 'team', 'smart.json');
    writeFileSync(file, JSON.stringify({ thresholds: { minRecall: 0.5 } }, null, 2));
    const r = await runCli(
      [
        '--snapshot',
        SNAP,
        '--config',
        'team/smart.json',
        '--json',
        'replay',
        SESSIONS,
        '--tune',
        '--write',
        '--folds',
        '2',
      ],
      { cwd, env: env(cwd) },
    );
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.tuned.written).toBe(file);
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(config.thresholds).toEqual({ minRecall: 0.5 });
    expect(config.weights).toEqual(doc.tuned.weights);
    expect(existsSync(join(cwd, 'mcp-smart.config.json'))).toBe(false);
  });

  it('reports a binary file and a file that is not a recording instead of skipping them silently', async () => {
    const cwd = tmp();
    const dir = join(cwd, 'recs');
    mkdirSync(join(dir, 'task'), { recursive: true });
    writeFileSync(join(dir, 'blob.jsonl'), Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0x00, 0x0a, 0x01, 0x02]));
    writeFileSync(join(dir, 'notes.json'), '{"hello": "world"}\n');
    writeFileSync(join(dir, 'ok.jsonl'), '{"intent": "read a file", "expected": ["filesystem.read_file"]}\n');
    // A Cline/Roo task folder's companion files are expected beside its history: not worth a warning.
    writeFileSync(join(dir, 'task', 'ui_messages.json'), '[]\n');
    const r = await runCli(['--snapshot', SNAP, '--json', 'replay', dir], { cwd, env: env(cwd) });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.cases).toBe(1);
    expect(doc.problems).toEqual([
      { file: join(dir, 'blob.jsonl'), line: 0, message: 'is a binary file, not a recording; skipped' },
    ]);
    expect(r.stderr).toContain(
      `1 file in the folders is not a recording and was skipped: ${join(dir, 'notes.json')}\n`,
    );
    expect(r.stderr).not.toContain('ui_messages.json');
  });

  it('usage errors exit 2 and name the problem', async () => {
    const cwd = tmp();
    expect((await replay(cwd, '--write')).code).toBe(2);
    expect((await replay(cwd, '--min-recall', '2')).stdout).toMatch(/--min-recall/);
    const missing = await runCli(['--snapshot', SNAP, '--json', 'replay', join(cwd, 'nope')], { cwd, env: env(cwd) });
    expect(missing.code).toBe(2);
    expect(missing.stdout).toMatch(/nope/);
    writeFileSync(join(cwd, 'mcp-smart.config.json'), '{ not json');
    const bad = await runCli(
      ['--snapshot', SNAP, '--json', 'replay', fixture('sessions', 'intents'), '--tune', '--write'],
      { cwd, env: env(cwd) },
    );
    expect(bad.code).toBe(2);
  });

  it('renders a table by default', async () => {
    const cwd = tmp();
    const r = await runCli(['--snapshot', SNAP, 'replay', fixture('sessions', 'intents')], { cwd, env: env(cwd) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Replayed 12 cases from 2 sessions in 1 file against 37 tools.');
    expect(r.stdout).toMatch(/hybrid/);
    expect(r.stdout).toMatch(/Tokens: top 5 tools/);
  });

  it('prints no table of 0 % recalls when no case can be scored, and --min-recall fails the gate', async () => {
    const cwd = tmp();
    const file = join(cwd, 'unlabelled.jsonl');
    writeFileSync(file, JSON.stringify({ intent: 'say hello', expected: [], session: 's1' }) + '\n');
    const r = await runCli(['--snapshot', SNAP, 'replay', file], { cwd, env: env(cwd) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Replayed 0 cases');
    expect(r.stdout).toContain('No case to score');
    expect(r.stdout).not.toMatch(/hybrid|%/);
    const gate = await runCli(['--snapshot', SNAP, '--json', 'replay', file, '--min-recall', '0.5'], {
      cwd,
      env: env(cwd),
    });
    expect(gate.code).toBe(1);
    expect(JSON.parse(gate.stdout)).toMatchObject({ cases: 0, minRecall: { passed: false } });
  });
});

describe('replay with nothing to read', () => {
  it('exits 2 and says what it reads when a folder holds no recordings', async () => {
    const empty = tempDir('mcp-smart-empty-');
    const r = await runCli(['--snapshot', fixture('snapshots', 'replay-demo.json'), 'replay', empty]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`No recordings found in ${empty}`);
    expect(r.stdout).toBe('');
  });

  it('says why each file given was not read (binary, a pipe, not a recording)', async () => {
    const dir = tempDir('mcp-smart-unread-');
    writeFileSync(join(dir, 'utf16.jsonl'), Buffer.from('\uFEFF{"intent": "x"}\n', 'utf16le'));
    writeFileSync(join(dir, 'other.json'), '{"numStartups": 3}\n');
    const r = await runCli(
      ['--snapshot', fixture('snapshots', 'replay-demo.json'), 'replay', 'utf16.jsonl', 'other.json'],
      {
        cwd: dir,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('utf16.jsonl: is a binary file');
    expect(r.stderr).toContain('other.json: not a recognised recording');
  });
});
