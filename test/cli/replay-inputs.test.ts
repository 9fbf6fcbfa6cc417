// What replay reads and keeps from the files it is given: secrets redacted before they reach the store, each file
// read once, links followed, byte order marks accepted, nothing left out without a word.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
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
