// `condense` in-process: levels, -o written atomically with before/after, JSON contract, exit codes.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

function sandbox(): { cwd: string; env: Record<string, string> } {
  const dir = tempDir('mcp-smart-condense-');
  return { cwd: dir, env: { NO_COLOR: '1', HOME: dir, MCP_SMART_CACHE_DIR: join(dir, 'cache') } };
}
const snap = (name: string): string => fixture('snapshots', `${name}.json`);

describe('condense', () => {
  it('audit-findings --level lossless -o: writes the condensed tools with before/after; stdout has the summary', async () => {
    const box = sandbox();
    const r = await runCli(
      ['--snapshot', snap('audit-findings'), 'condense', '--level', 'lossless', '-o', 'out/tools.json'],
      box,
    );
    expect(r.code).toBe(0);
    const file = join(box.cwd, 'out', 'tools.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(doc)).toEqual([
      'schemaVersion',
      'command',
      'level',
      'encoding',
      'render',
      'before',
      'after',
      'servers',
    ]);
    expect(doc).toMatchObject({
      command: 'condense',
      level: 'lossless',
      encoding: 'o200k_base',
      before: { tokens: 859 },
      after: { tokens: 792 },
    });
    expect(doc.servers.map((s: { name: string; tools: unknown[] }) => [s.name, s.tools.length])).toEqual([
      ['notes', 7],
      ['a-server-with-a-rather-long-descriptive-name', 2],
    ]);
    expect(doc.servers[0].tools[0].inputSchema.$schema).toBeUndefined();
    expect(readdirSync(join(box.cwd, 'out'))).toEqual(['tools.json']);
    expect(r.stdout).toContain('859 → 792 tokens');
    expect(r.stdout).toContain('-67 (-7.8%)');
    expect(r.stdout).toContain('Wrote out/tools.json');
  });

  it('--json --level meta: the meta-tools stand in for all servers', async () => {
    const r = await runCli(['--snapshot', snap('audit-findings'), '--json', 'condense', '--level', 'meta'], sandbox());
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.servers).toHaveLength(1);
    expect(doc.servers[0].tools.map((t: { name: string }) => t.name)).toEqual([
      'find_tool',
      'describe_tool',
      'list_tools',
      'call_tool',
      'call_tool_read',
    ]);
    expect(doc.before.tokens).toBe(859);
    expect(doc.after.tokens).toBe(442);
  });

  it('--level minimal and names shrink further; compact sits between lossless and minimal', async () => {
    const box = sandbox();
    const after = async (level: string): Promise<number> =>
      JSON.parse(
        (await runCli(['--snapshot', snap('audit-findings'), '--json', 'condense', '--level', level], box)).stdout,
      ).after.tokens;
    expect(await after('compact')).toBe(747);
    expect(await after('minimal')).toBe(290);
    expect(await after('names')).toBeLessThan(290);
  });

  it('audit-failed: condenses the servers that answered and exits 3', async () => {
    const r = await runCli(['--snapshot', snap('audit-failed'), '--json', 'condense'], sandbox());
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).servers.map((s: { name: string }) => s.name)).toEqual(['clock']);
    expect(r.stderr).toMatch(
      /^warning: server \S+ could not be reached \(.+\); its tools are not in the condensed output$/m,
    );
  });

  it('without -o or --json, says how to get the definitions and writes nothing', async () => {
    const box = sandbox();
    const r = await runCli(['--snapshot', snap('audit-failed'), '-s', 'clock', 'condense', '--level', 'compact'], box);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('-o <file>');
    expect(existsSync(join(box.cwd, 'out'))).toBe(false);
  });

  it('an unknown level is a usage error', async () => {
    const r = await runCli(['--snapshot', snap('audit-failed'), 'condense', '--level', 'tiny'], sandbox());
    expect(r.code).toBe(2);
  });
});
