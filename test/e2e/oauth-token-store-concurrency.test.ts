// The OAuth token store is changed by several processes at once (two `login`s, serve refreshing a token):
// each process's entries survive, and a folder open to others is made private before tokens are written.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO, requireBuild } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

requireBuild();
const STORE_MODULE = pathToFileURL(join(REPO, 'dist', 'core', 'connect', 'oauth', 'token-store.js')).href;

/** A process that writes `count` entries of its own into the store, one update each. */
function writer(file: string, name: string, count: number): Promise<number | null> {
  const code = `
    const { TokenStore } = await import(${JSON.stringify(STORE_MODULE)});
    const store = new TokenStore(${JSON.stringify(file)});
    for (let i = 0; i < ${count}; i++)
      await store.update(${JSON.stringify(name)} + ' ' + i, () => ({ url: 'https://x.test/mcp', client: 'dynamic', login: ${JSON.stringify(name)} }));
  `;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'inherit' });
    child.on('close', resolve);
  });
}

describe('the OAuth token store under concurrent processes', () => {
  it('keeps every entry of four processes writing at once', { timeout: 60_000 }, async () => {
    const dir = tempDir('mcp-smart-token-race-');
    const file = join(dir, 'config', 'oauth-tokens.json');
    const codes = await Promise.all(['a', 'b', 'c', 'd'].map((n) => writer(file, n, 15)));
    expect(codes).toEqual([0, 0, 0, 0]);
    const entries = Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { entries: object }).entries);
    expect(entries).toHaveLength(60);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('makes a token folder open to others private (0700) before writing', async () => {
    const dir = tempDir('mcp-smart-token-folder-');
    const folder = join(dir, 'config');
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    expect(await writer(join(folder, 'oauth-tokens.json'), 'a', 1)).toBe(0);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });
});
