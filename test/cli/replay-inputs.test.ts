// What replay reads and keeps from the files it is given: secrets redacted before they reach the store, each file
// read once, links followed, byte order marks accepted, nothing left out without a word.
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const SNAP = fixture('snapshots', 'replay-demo.json');
const SESSIONS = fixture('sessions');
const LABELLED = fixture('sessions', 'intents', 'labelled.jsonl');
const tmp = (): string => tempDir('mcp-smart-replay-inputs-');
const env = (cwd: string): Record<string, string> => ({
  NO_COLOR: '1',
  MCP_SMART_CACHE_DIR: join(cwd, 'cache'),
  MCP_SMART_DATA_DIR: join(cwd, 'data'),
});
const replay = (cwd: string, ...args: string[]) =>
  runCli(['--snapshot', SNAP, '--json', 'replay', ...args], { cwd, env: env(cwd) });
const jsonl = (...rows: unknown[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('replay --learn keeps no secret of an intent', () => {
  it('tokens with nothing naming them are redacted in the usage store, the rest of the intent kept', async () => {
    const cwd = tmp();
    writeFileSync(
      join(cwd, 'sec.jsonl'),
      jsonl(
        {
          intent: 'read the notes with token ghp_abcdefghijklmnopqrstuvwxyz0123456789',
          expected: ['filesystem.read_file'],
        },
        {
          intent: 'use API key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 to list the folder',
          expected: ['filesystem.list_directory'],
        },
      ),
    );
    const r = await replay(cwd, 'sec.jsonl', '--learn', '--store', 's.json');
    expect(r.code, r.stderr).toBe(0);
    const store = readFileSync(join(cwd, 's.json'), 'utf8');
    expect(store).not.toContain('ghp_');
    expect(store).not.toContain('sk-ant');
    const intents = Object.values(JSON.parse(store).intents as Record<string, { text: string }[]>)
      .flat()
      .map((i) => i.text)
      .sort();
    expect(intents).toEqual(['read the notes with token ***', 'use API key *** to list the folder']);
  });
});

describe('each recording is read once', () => {
  // A file named twice, or reached again through a folder already given, counted its cases twice.
  it('a file given twice counts once, with a note naming it', async () => {
    const cwd = tmp();
    const once = JSON.parse((await replay(cwd, LABELLED, '--no-store')).stdout);
    const r = await replay(cwd, LABELLED, LABELLED, '--no-store');
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.cases).toBe(once.cases);
    expect(doc.files).toHaveLength(1);
    expect(r.stderr).toContain(`1 file was given more than once and read once: ${LABELLED}`);
  });

  it('a folder and a file inside it count the file once, in replay and in --learn', async () => {
    const cwd = tmp();
    const r = await replay(cwd, SESSIONS, join(SESSIONS, 'intents'), '--learn', '--store', 'twice.json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).cases).toBe(139);
    expect((await replay(cwd, SESSIONS, '--learn', '--store', 'once.json')).code).toBe(0);
    const tools = (f: string): unknown => JSON.parse(readFileSync(join(cwd, f), 'utf8')).tools;
    expect(tools('twice.json')).toEqual(tools('once.json'));
  });
});

describe('links inside a replayed folder', () => {
  // Dirent.isFile() is false for a link: linked recordings and folders were skipped without a word.
  it('are followed to files and folders, a loop is walked once, a link to nothing is named', async () => {
    const cwd = tmp();
    const dir = join(cwd, 'recordings');
    mkdirSync(dir);
    symlinkSync(LABELLED, join(dir, 'labelled.jsonl'));
    symlinkSync(join(SESSIONS, 'claude-code'), join(dir, 'claude'));
    symlinkSync(dir, join(dir, 'loop'));
    symlinkSync(join(cwd, 'gone.jsonl'), join(dir, 'gone.jsonl'));
    const direct = JSON.parse((await replay(cwd, LABELLED, join(SESSIONS, 'claude-code'), '--no-store')).stdout);
    const r = await replay(cwd, dir, '--no-store');
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.cases).toBe(direct.cases);
    expect(doc.files).toHaveLength(direct.files.length);
    expect(r.stderr).toContain(`${join(dir, 'gone.jsonl')}:0: is a symbolic link to nothing; skipped`);
  });
});

describe('a byte order mark at the start of a file', () => {
  const BOM = '\ufeff';

  it('is no reason to skip a Cline history or labelled intents', async () => {
    // JSON.parse met the mark: "not valid JSON (Unexpected token '\ufeff')" and 0 cases.
    const cwd = tmp();
    const history = join(SESSIONS, 'cline', 'tasks', '1756803600000', 'api_conversation_history.json');
    const plain = JSON.parse((await replay(cwd, history, LABELLED, '--no-store')).stdout);
    const task = join(cwd, 'tasks', '1756803600000');
    mkdirSync(task, { recursive: true });
    writeFileSync(join(task, 'api_conversation_history.json'), BOM + readFileSync(history, 'utf8'));
    writeFileSync(join(cwd, 'labelled.jsonl'), BOM + readFileSync(LABELLED, 'utf8'));
    const r = await replay(cwd, join(task, 'api_conversation_history.json'), 'labelled.jsonl', '--no-store');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('not valid JSON');
    expect(JSON.parse(r.stdout).cases).toBe(plain.cases);
  });

  it('of a usage store keeps what it learned: not moved aside, read by budget and discover too', async () => {
    // The store was renamed *.corrupt-<n> and learning restarted from 0; budget and discover refused it.
    const cwd = tmp();
    expect((await replay(cwd, LABELLED, '--learn', '--store', 'ubom.json')).code).toBe(0);
    const store = join(cwd, 'ubom.json');
    const learned = JSON.parse(readFileSync(store, 'utf8'));
    writeFileSync(store, BOM + JSON.stringify(learned, null, 2));
    const again = await replay(cwd, SESSIONS, '--learn', '--store', 'ubom.json');
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(cwd).filter((f) => f.includes('.corrupt-'))).toEqual([]);
    const after = JSON.parse(readFileSync(store, 'utf8'));
    expect(Object.keys(after.sessions)).toEqual(expect.arrayContaining(Object.keys(learned.sessions)));
    writeFileSync(store, BOM + readFileSync(store, 'utf8'));
    const cli = (...args: string[]) => runCli(['--snapshot', SNAP, ...args], { cwd, env: env(cwd) });
    const budget = await cli('budget', '--max', '100000', '--store', 'ubom.json');
    expect(budget.code, budget.stderr).toBe(0);
    const discover = await cli('discover', 'read a file', '--store', 'ubom.json');
    expect(discover.code, discover.stderr).toBe(0);
  });
});

describe('turns without a timestamp', () => {
  const event = (type: string, content: unknown, timestamp?: string): unknown => ({
    type,
    sessionId: 's1',
    ...(timestamp ? { timestamp } : {}),
    message: { role: type, content },
  });
  const call = (id: string, name: string, timestamp?: string): unknown[] => [
    event('assistant', [{ type: 'tool_use', id, name, input: {} }], timestamp),
    event('user', [{ type: 'tool_result', tool_use_id: id, content: 'ok' }], timestamp),
  ];

  it('take the time of the nearest dated turn: --learn forgets none of the dated history, and says so once', async () => {
    // The undated turn counted as "now", the retention cap measured from it and forgot the 2025 turn's tool.
    const cwd = tmp();
    const t = '2025-01-01T00:00:00.000Z';
    writeFileSync(
      join(cwd, 'mixed.jsonl'),
      jsonl(
        event('user', 'read the file notes.txt', t),
        ...call('c1', 'mcp__filesystem__read_file', t),
        event('user', 'list the folder src'),
        ...call('c2', 'mcp__filesystem__list_directory'),
        event('user', 'list the folder docs', 'not a time'),
        ...call('c3', 'mcp__filesystem__list_directory'),
      ),
    );
    const r = await replay(cwd, 'mixed.jsonl', '--learn', '--store', 'x.json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/forgot|not kept/);
    expect(r.stderr.match(/no readable timestamp/g)).toHaveLength(1);
    expect(r.stderr).toContain(`${join(cwd, 'mixed.jsonl')}:4: 2 turns have no readable timestamp`);
    const tools = JSON.parse(readFileSync(join(cwd, 'x.json'), 'utf8')).tools;
    expect(Object.keys(tools).sort()).toEqual(['filesystem.list_directory', 'filesystem.read_file']);
    expect(tools['filesystem.list_directory'].lastUsed).toBe(Date.parse(t));
  });
});

describe('labelled intents that expect nothing', () => {
  it('are named with their file and line, as check and discover name them, not left out silently', async () => {
    const cwd = tmp();
    writeFileSync(
      join(cwd, 'empty.jsonl'),
      jsonl({ intent: 'read the notes', expected: ['filesystem.read_file'] }, { intent: 'read it', expected: [] }),
    );
    const r = await replay(cwd, 'empty.jsonl', '--no-store');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `${join(cwd, 'empty.jsonl')}:2: "expected" is empty; name the tool(s) this intent should find`,
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ cases: 1, problems: [{ line: 2 }] });
  });
});

describe('replay --tune --write with no case to tune on', () => {
  it('writes no weights and says so', async () => {
    // It warned "the weights are unchanged", then wrote the full default weights into mcp-smart.config.json.
    const cwd = tmp();
    writeFileSync(
      join(cwd, 'talk.jsonl'),
      jsonl({
        type: 'user',
        sessionId: 's1',
        timestamp: '2025-01-01T00:00:00.000Z',
        message: { role: 'user', content: 'hello there' },
      }),
    );
    const r = await replay(cwd, 'talk.jsonl', '--tune', '--write', '--no-store');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('no cases to tune on; the weights are unchanged and nothing was written');
    expect(readdirSync(cwd)).not.toContain('mcp-smart.config.json');
    expect(JSON.parse(r.stdout).tuned.written).toBeUndefined();
    const table = await runCli(['--snapshot', SNAP, 'replay', 'talk.jsonl', '--tune', '--write', '--no-store'], {
      cwd,
      env: env(cwd),
    });
    expect(table.stdout).toContain('Nothing was tuned, so no weights were written.');
    expect(readdirSync(cwd)).not.toContain('mcp-smart.config.json');
  });
});
