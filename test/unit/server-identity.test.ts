// A local server's identity (issue 36): the tool-list cache answers only while the server's files are the ones it
// listed, so an edited script, a reinstalled package or another program on PATH is listed again.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCachedSnapshot, writeCachedSnapshot } from '../../src/core/connect/cache.js';
import { serverIdentity } from '../../src/core/connect/server-identity.js';
import type { ServerDefinition, ServerSnapshot } from '../../src/core/types.js';
import { tempDir } from '../helpers/temp.js';

const def = (extra: Partial<ServerDefinition> = {}): ServerDefinition => ({
  name: 'local',
  transport: 'stdio',
  command: 'node',
  args: ['server.mjs'],
  enabled: true,
  source: '.mcp.json',
  scope: 'project',
  ...extra,
});

const snap: ServerSnapshot = {
  name: 'local',
  transport: 'stdio',
  status: 'ok',
  tools: [{ name: 'lookup', description: 'Looks up a word.', inputSchema: { type: 'object' } }],
};

/** A project with server.mjs and a fake `node` program on its own PATH folder. */
function project(): { dir: string; bin: string } {
  const dir = tempDir('mcp-smart-identity-');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'node'), '#!/bin/sh\n', { mode: 0o755 });
  writeFileSync(join(dir, 'server.mjs'), 'export const v = 1;\n');
  return { dir, bin };
}

describe('serverIdentity', () => {
  it('changes when the script is edited (size or mtime), and not otherwise', () => {
    const { dir, bin } = project();
    const origin = { cwd: dir, path: bin };
    const first = serverIdentity(def(), origin);
    expect(first).toContain(join(dir, 'server.mjs'));
    expect(first).toContain(join(bin, 'node'));
    expect(serverIdentity(def(), origin)).toBe(first);
    writeFileSync(join(dir, 'server.mjs'), 'export const v = 22;\n');
    const grown = serverIdentity(def(), origin);
    expect(grown).not.toBe(first);
    // Same size, other content: the modification time tells.
    writeFileSync(join(dir, 'server.mjs'), 'export const v = 33;\n');
    utimesSync(join(dir, 'server.mjs'), new Date(0), new Date(1_000_000));
    expect(serverIdentity(def(), origin)).not.toBe(grown);
  });

  it('takes --flag=<file> arguments, the server cwd, and the version of the package a file lies in', () => {
    const { dir, bin } = project();
    const pkg = join(dir, 'node_modules', '@acme', 'srv');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@acme/srv', version: '1.2.3' }));
    writeFileSync(join(pkg, 'dist', 'index.js'), '');
    const d = def({ args: ['--entry=node_modules/@acme/srv/dist/index.js', '--verbose'] });
    expect(serverIdentity(d, { cwd: dir, path: bin })).toContain('"version":"1.2.3"');
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@acme/srv', version: '1.3.0' }));
    expect(serverIdentity(d, { cwd: dir, path: bin })).toContain('"version":"1.3.0"');
    // A relative cwd on the definition is taken from the origin.
    const sub = def({ cwd: 'node_modules/@acme/srv', args: ['dist/index.js'] });
    expect(serverIdentity(sub, { cwd: dir, path: bin })).toContain(join(pkg, 'dist', 'index.js'));
  });

  it('is empty for remote servers and without an origin (the key stays what it was)', () => {
    expect(
      serverIdentity(def({ transport: 'http', url: 'https://x.test/mcp', command: undefined }), { cwd: '/' }),
    ).toBe('');
    expect(serverIdentity(def(), undefined)).toBe('');
  });
});

describe('the tool-list cache keyed by identity', () => {
  it('a list stored before the script changed is a miss after it', async () => {
    const { dir, bin } = project();
    const cache = { dir: join(dir, 'cache'), ttlMs: 3_600_000, now: 1_000, origin: { cwd: dir, path: bin } };
    await writeCachedSnapshot(def(), snap, cache);
    expect((await readCachedSnapshot(def(), cache))?.tools).toEqual(snap.tools);
    writeFileSync(join(dir, 'server.mjs'), 'export const v = "a longer description now";\n');
    expect(await readCachedSnapshot(def(), cache)).toBeUndefined();
  });
});
