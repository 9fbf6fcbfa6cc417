// check --update while a server is unreachable.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

let dir: string;
const cli = (argv: string[]) => runCli(argv, { cwd: dir, env: { NO_COLOR: '1', HOME: dir } });

beforeEach(async () => {
  dir = tempDir('mcp-smart-qa-check-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('check --update with an unreachable server', () => {
  it('reports the totals of the baseline it keeps (the unreachable server keeps its previous entry)', async () => {
    expect((await cli(['--snapshot', fixture('snapshots', 'check-base.json'), 'check', '--update'])).code).toBe(0);
    const r = await cli(['--json', '--snapshot', fixture('snapshots', 'check-unreachable.json'), 'check', '--update']);
    expect(r.code).toBe(3);
    const lock = JSON.parse(await readFile(join(dir, 'mcp-smart.lock.json'), 'utf8')) as {
      servers: Record<string, { tokens: number }>;
    };
    const total = Object.values(lock.servers).reduce((n, s) => n + s.tokens, 0);
    expect(total).toBe(807);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: { written: false, servers: 3, tokens: 807 } });
    const text = await cli(['--snapshot', fixture('snapshots', 'check-unreachable.json'), 'check', '--update']);
    expect(text.stdout).toContain('is up to date: 3 servers, 807 tokens');
  });
});
