// Only a regular file that mcp-smart wrote as a usage store may be moved aside; everything else is an
// exit-2 error naming the path, left untouched. Stand-ins (device, FIFO, symlink) live in our temp folder.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SNAP = fixture('snapshots', 'check-base.json');
const SESSIONS = fixture('sessions');

const discover = (store: string) => runCli(['--snapshot', SNAP, 'discover', 'read a file', '--store', store]);
const learn = (store: string) =>
  runCli(['--snapshot', fixture('snapshots', 'replay-demo.json'), 'replay', SESSIONS, '--learn', '--store', store]);

describe('usage store paths and contents that are not ours', () => {
  it('a character device stand-in as --store is refused and keeps its name and kind', async () => {
    const dev = join(dir, 'null');
    execFileSync('mknod', [dev, 'c', '1', '3']);
    for (const run of [discover, learn]) {
      const r = await run(dev);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `${dev}: it is not a regular file (a device, a pipe or a socket). It was left untouched`,
      );
      expect(statSync(dev).isCharacterDevice()).toBe(true);
    }
    expect(readdirSync(dir).filter((f) => f.startsWith('null.'))).toEqual([]);
  });

  it('a FIFO as --store is refused without blocking on it', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const r = await discover(fifo);
    expect(r.code).toBe(2);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('a folder as --store, or a store whose folder is a file: exit 2 naming the path', async () => {
    const folder = join(dir, 'folder-store');
    mkdirSync(folder);
    let r = await learn(folder);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${folder}: it is a folder, not a usage store file`);
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    r = await learn(join(file, 'usage.json'));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(join(file, 'usage.json'));
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('a store from a newer format is refused and left byte for byte (discover and replay --learn)', async () => {
    const store = join(dir, 'newer.json');
    const text = JSON.stringify({ format: 'mcp-smart/usage@2', tools: {}, extra: 'kept' });
    writeFileSync(store, text);
    for (const run of [discover, learn]) {
      const r = await run(store);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('written by a newer mcp-smart (format "mcp-smart/usage@2"');
      expect(readFileSync(store, 'utf8')).toBe(text);
    }
    expect(readdirSync(dir).filter((f) => f.startsWith('newer.json.'))).toEqual([]);
  });

  it('a JSON file that is not a store (a wrong path) is refused, not moved aside', async () => {
    const other = join(dir, 'package.json');
    writeFileSync(other, '{"name": "not-a-store"}');
    const r = await discover(other);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('it is not an mcp-smart usage store');
    expect(existsSync(other)).toBe(true);
  });

  it('a damaged store we wrote is moved aside with a warning; a symlink to one is refused instead', async () => {
    const store = join(dir, 'damaged.json');
    writeFileSync(store, '{\n  "format": "mcp-smart/usage@1",\n  "tools": {');
    const link = join(dir, 'link-to-damaged.json');
    symlinkSync(store, link);
    const viaLink = await discover(link);
    expect(viaLink.code).toBe(2);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const r = await discover(store);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/usage store .*damaged\.json is unreadable .*moved it to .*damaged\.json\.corrupt-\d+/);
    expect(readdirSync(dir).some((f) => f.startsWith('damaged.json.corrupt-'))).toBe(true);
  });

  it('replay --learn --store under /proc is refused at once (no lock retries)', async () => {
    const started = performance.now();
    const r = await learn('/proc/self/status');
    expect(r.code).toBe(2);
    const fresh = await learn('/proc/self/mcp-smart-usage.json');
    expect(fresh.code, fresh.stderr).toBe(2);
    expect(fresh.stderr).toContain('no lock file can be created beside it');
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
