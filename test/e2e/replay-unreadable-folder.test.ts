// A folder replay may not read, inside the folders it is given: named in a warning and skipped, like an unreadable
// file. It stopped the whole replay with exit 4 "Internal error: EACCES … scandir" and a stack trace.
// Permissions bind only a user without root's override: as root the CLI runs without it (setpriv drops
// CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, so root is held to the folder's mode 000 like anyone, and the test's
// folders need not be opened to nobody); the test skips only where the folder stays readable to the CLI's user.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture, requireBuild } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

requireBuild();
const isRoot = process.getuid?.() === 0;
const NO_OVERRIDE = ['setpriv', '--bounding-set=-dac_override,-dac_read_search'];

let dir = '';
let recordings = '';
let locked = '';
let canTest = false;
beforeAll(() => {
  dir = tempDir('mcp-smart-replay-unreadable-');
  recordings = join(dir, 'recordings');
  locked = join(recordings, 'locked');
  mkdirSync(locked, { recursive: true });
  cpSync(fixture('sessions', 'intents', 'labelled.jsonl'), join(recordings, 'labelled.jsonl'));
  writeFileSync(join(locked, 'hidden.jsonl'), '{"intent": "read a file", "expected": ["filesystem.read_file"]}\n');
  writeFileSync(join(recordings, 'secret.jsonl'), '{"intent": "read a file", "expected": ["filesystem.read_file"]}\n');
  chmodSync(join(recordings, 'secret.jsonl'), 0o000);
  chmodSync(locked, 0o000);
  // Whether the CLI's user reads the recordings but not the locked folder (setpriv missing, or a user with the
  // override as a capability: the case cannot be made here).
  const probe = run(['-e', `require('fs').readdirSync(${JSON.stringify(recordings)})`]);
  const blocked = run(['-e', `require('fs').readdirSync(${JSON.stringify(locked)})`]);
  canTest = probe.status === 0 && blocked.status !== 0;
});
afterAll(() => chmodSync(locked, 0o755));

/** node as the CLI's user: root without its permission override, else the current user. */
function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const [cmd, ...rest] = isRoot ? [...NO_OVERRIDE, process.execPath, ...args] : [process.execPath, ...args];
  const r = spawnSync(cmd!, rest, {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      NO_COLOR: '1',
      HOME: dir,
      MCP_SMART_DATA_DIR: join(dir, 'data'),
      MCP_SMART_CACHE_DIR: join(dir, 'cache'),
    },
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

describe('replay of a folder holding a folder it may not read', () => {
  it('names the folder in a warning and replays the rest (exit 0), no stack trace', (ctx) => {
    if (!canTest) ctx.skip();
    const r = run([
      BIN,
      '--snapshot',
      fixture('snapshots', 'replay-demo.json'),
      '--json',
      'replay',
      recordings,
      '--no-store',
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: ${locked}: cannot read this folder`);
    expect(r.stderr).not.toMatch(/Internal error|scandir|\n\s+at /);
    const doc = JSON.parse(r.stdout);
    expect(doc.files).toHaveLength(1);
    expect(doc.cases).toBeGreaterThan(0);
    // Counted as what it is, not as a malformed line.
    // So is a file it may not read: both counted as unreadable, not as malformed lines.
    expect(doc.unreadable).toEqual([
      { file: locked, message: expect.stringContaining('EACCES') },
      { file: join(recordings, 'secret.jsonl'), message: expect.stringContaining('EACCES') },
    ]);
    expect(doc.problems.filter((p: { file: string }) => p.file.startsWith(locked))).toEqual([]);
  });
});
