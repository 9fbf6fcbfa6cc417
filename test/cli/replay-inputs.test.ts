// What replay reads and keeps from the files it is given: secrets redacted before they reach the store, each file
// read once, links followed, byte order marks accepted, nothing left out without a word.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const SNAP = fixture('snapshots', 'replay-demo.json');
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
