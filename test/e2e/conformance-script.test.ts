// scripts/conformance.mjs: the paths that need no network (the suite itself runs with `npm run conformance`, which
// installs node@22 from the registry, so it is not part of the test run).
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths.js';

const SCRIPT = join(REPO, 'scripts', 'conformance.mjs');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [SCRIPT, ...args], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });

describe('conformance script', () => {
  it('--help prints the usage and exits 0', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      'Usage: node scripts/conformance.mjs [--server] [--serve] [--client] [--scenario NAME]...',
    );
    expect(r.stdout).toContain('Exit codes: 0 every scenario as expected');
  });

  it.each([
    [['--bogus'], 'unknown option --bogus (see the usage at the top of scripts/conformance.mjs)'],
    [
      ['--serve', '--target', 'http://127.0.0.1:1/mcp'],
      '--target replaces the fixture of the server part: use it with --server alone',
    ],
    [
      ['--client', '--target', 'node x.js'],
      '--target replaces the fixture of the server part: use it with --server alone',
    ],
    [['--suite', 'some'], '--suite must be all, active or pending'],
    [['--target'], '--target needs a value'],
  ])('%j is a usage error (exit 2)', (args, message) => {
    const r = run(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`conformance: ${message}\n`);
  });

  it('refuses a --node older than 22 before installing anything', () => {
    const r = run('--node', process.execPath, '--scenario', 'ping');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`conformance: --node ${process.execPath} is ${process.version}; the suite needs Node 22+\n`);
    expect(r.stderr).not.toContain('installing');
  });

  it('one expected-failures file, a section per part, every entry with a reason', () => {
    const doc = JSON.parse(readFileSync(join(REPO, 'conformance', 'expected-failures.json'), 'utf8'));
    expect(Object.keys(doc)).toEqual(['$comment', 'server', 'serve', 'client']);
    expect(readdirSync(join(REPO, 'conformance'))).toEqual(['expected-failures.json']);
    for (const mode of ['server', 'serve', 'client']) {
      for (const [scenario, reason] of Object.entries(doc[mode] as Record<string, unknown>)) {
        expect(typeof reason, `${mode}.${scenario}`).toBe('string');
        expect((reason as string).length, `${mode}.${scenario}`).toBeGreaterThanOrEqual(40);
      }
    }
  });
});
