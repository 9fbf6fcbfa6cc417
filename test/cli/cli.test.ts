import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { scanAdhocServers } from '../../src/commands/global-options.js';

describe('cli', () => {
  it('prints help with every contract command and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const cmd of ['servers', 'dump', 'audit', 'condense', 'discover', 'budget', 'check', 'replay', 'init']) {
      expect(r.stdout).toContain(`  ${cmd}`);
    }
  });

  it('exits 2 on an unknown command and says so on stderr', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
  });

  it('exits 2 with a JSON error document under --json for a bad flag value', async () => {
    const r = await runCli(['--json', '--timeout', 'soon', 'servers']);
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as { schemaVersion: number; error: { code: string; message: string } };
    expect(doc.schemaVersion).toBe(1);
    expect(doc.error.code).toBe('BAD_FLAG');
    expect(doc.error.message).toContain('--timeout');
  });

  it('exits 2 naming --encoding for an unknown encoding', async () => {
    const r = await runCli(['--encoding', 'p50k', 'servers']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--encoding');
  });

  it('pairs --name with the ad-hoc server before it, in command-line order', () => {
    expect(
      scanAdhocServers([
        '--stdio',
        'node a.js',
        '--name',
        'a',
        '--url=http://127.0.0.1:1/mcp',
        'audit',
        '--stdio',
        'node b.js',
      ]),
    ).toEqual([
      { kind: 'stdio', value: 'node a.js', name: 'a' },
      { kind: 'url', value: 'http://127.0.0.1:1/mcp' },
      { kind: 'stdio', value: 'node b.js' },
    ]);
  });
});

describe('--snapshot with live server flags', () => {
  it('warns that --stdio and --demo are ignored when a snapshot is analysed', async () => {
    const { fixture } = await import('../helpers/paths.js');
    const r = await runCli([
      '--snapshot',
      fixture('snapshots', 'check-base.json'),
      '--stdio',
      'node x.js',
      'audit',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('--snapshot replaces connecting, so --stdio, --url and --demo were ignored');
    expect(JSON.parse(r.stdout).command).toBe('audit');
  });
});
