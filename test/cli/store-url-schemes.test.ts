// A usage store is a file path or a postgres:// URL. A URL of any other scheme (mysql://, https://) was taken as a
// relative file path: folders named after it, its password among them, were created and printed. Now it is exit 2
// naming --store (or the config's `store`) and the forms a store takes, the URL shown with its credentials hidden.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkStoreSpec, foreignStoreUrl } from '../../src/core/store/url.js';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const SNAP = fixture('snapshots', 'check-base.json');
const tmp = (): string => tempDir('mcp-smart-store-url-');
const env = (cwd: string): Record<string, string> => ({
  NO_COLOR: '1',
  HOME: join(cwd, 'home'),
  MCP_SMART_CACHE_DIR: join(cwd, 'cache'),
  MCP_SMART_DATA_DIR: join(cwd, 'data'),
});
const cli = (cwd: string, args: string[]) => runCli(args, { cwd, env: env(cwd) });

describe('a --store URL that is not PostgreSQL', () => {
  it.each([
    ['mysql://admin:Pa55word99x@db.example/z', 'Pa55word99x', 'mysql'],
    ['https://user:tok3n5ecret@example.com/x', 'tok3n5ecret', 'https'],
    ['https://ghp0tok3n5ecret@example.com/x?key=s3cr3tq', 'ghp0tok3n5ecret', 'https'],
  ])('%s: exit 2 naming --store and the forms, no secret shown, nothing created', async (url, secret, scheme) => {
    const cwd = tmp();
    for (const args of [
      ['store', 'init', '--store', url],
      ['--snapshot', SNAP, 'discover', 'read a file', '--store', url],
      ['--json', 'store', 'init', '--store', url],
    ]) {
      const r = await cli(cwd, args);
      expect(r.code, r.stderr + r.stdout).toBe(2);
      const text = r.stdout + r.stderr;
      expect(text).toContain('--store');
      expect(text).toContain(`${scheme}:// is not a usage store scheme; use a file path or a postgres://`);
      expect(text).not.toContain(secret);
      expect(text).not.toContain('s3cr3tq');
    }
    expect(readdirSync(cwd).filter((f) => f.includes(':'))).toEqual([]);
    expect(existsSync(join(cwd, `${scheme}:`))).toBe(false);
  });

  it('the config file `store` key is checked the same way: exit 2 naming the file and key', async () => {
    const cwd = tmp();
    const file = join(cwd, 'mcp-smart.config.json');
    writeFileSync(file, JSON.stringify({ store: 'mysql://admin:Pa55word99x@db.example/z' }));
    const r = await cli(cwd, ['--snapshot', SNAP, 'discover', 'read a file']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${file}: store: mysql:// is not a usage store scheme`);
    expect(r.stderr).not.toContain('Pa55word99x');
    expect(readdirSync(cwd).filter((f) => f.includes(':'))).toEqual([]);
  });

  it('postgres:// and postgresql:// are stores; paths (Windows drives included) stay paths', () => {
    for (const spec of [
      'postgres://u:p@h/db',
      'POSTGRESQL://h/db',
      'C:\\Users\\me\\usage.json',
      'C://x/usage.json',
      './usage.json',
      'usage.json',
      '/abs/usage.json',
    ])
      expect(foreignStoreUrl(spec), spec).toBeUndefined();
    expect(() => checkStoreSpec('redis://:pw@h:6379', 'mcp-smart.config.json: store')).toThrow(
      /^mcp-smart\.config\.json: store: the store URL redis:\/\/(?!.*pw).* cannot be used: redis:\/\/ is not a usage store scheme/,
    );
  });
});
