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
    [['--requirements', '2025-06-18'], '--requirements must be 2025-11-25 or 2026-07-28'],
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

  it('one expected-failures file, a section per part and one for 2026-07-28, every entry with a reason', () => {
    const doc = JSON.parse(readFileSync(join(REPO, 'conformance', 'expected-failures.json'), 'utf8'));
    expect(Object.keys(doc)).toEqual(['$comment', 'server', 'serve', 'client', '2026-07-28']);
    // The 2026-07-28 set runs serve and mcp-smart as client (the server part's fixture is a 2025 server).
    expect(Object.keys(doc['2026-07-28'])).toEqual(['serve', 'client']);
    expect(readdirSync(join(REPO, 'conformance'))).toEqual(['expected-failures.json']);
    const sections: [string, Record<string, unknown>][] = [
      ...['server', 'serve', 'client'].map((m): [string, Record<string, unknown>] => [m, doc[m]]),
      ...['serve', 'client'].map((m): [string, Record<string, unknown>] => [`2026-07-28.${m}`, doc['2026-07-28'][m]]),
    ];
    for (const [where, section] of sections) {
      for (const [scenario, reason] of Object.entries(section)) {
        expect(typeof reason, `${where}.${scenario}`).toBe('string');
        expect((reason as string).length, `${where}.${scenario}`).toBeGreaterThanOrEqual(40);
      }
    }
  });

  it('both suites are pinned devDependencies: 0.1.16 for 2025-11-25, the 0.2.0-alpha.12 prerelease for 2026-07-28', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    expect(pkg.devDependencies['@modelcontextprotocol/conformance']).toBe('0.1.16');
    expect(pkg.devDependencies['mcp-conformance-2026-07-28']).toBe(
      'npm:@modelcontextprotocol/conformance@0.2.0-alpha.12',
    );
    const installed = JSON.parse(
      readFileSync(join(REPO, 'node_modules', 'mcp-conformance-2026-07-28', 'package.json'), 'utf8'),
    );
    expect(installed.version).toBe('0.2.0-alpha.12');
  });
});
