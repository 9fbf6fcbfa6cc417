// `audit` in-process against fixture snapshots: JSON contract, exit codes, count cache, reporters.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

function sandbox(): { cwd: string; env: Record<string, string> } {
  const dir = tempDir('mcp-smart-audit-');
  return { cwd: dir, env: { NO_COLOR: '1', HOME: dir, MCP_SMART_CACHE_DIR: join(dir, 'cache') } };
}

const snap = (name: string): string => fixture('snapshots', `${name}.json`);

describe('audit', () => {
  it('audit-findings: JSON follows the contract, with pinned totals', async () => {
    const box = sandbox();
    const r = await runCli(['--snapshot', snap('audit-findings'), '--json', 'audit'], box);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual([
      'schemaVersion',
      'command',
      'encoding',
      'render',
      'window',
      'servers',
      'totals',
      'findings',
    ]);
    expect(doc.schemaVersion).toBe(1);
    expect(doc.command).toBe('audit');
    expect(doc.encoding).toBe('o200k_base');
    expect(Object.keys(doc.servers[0])).toEqual([
      'name',
      'status',
      'toolCount',
      'tokens',
      'instructionsTokens',
      'tools',
    ]);
    expect(Object.keys(doc.servers[0].tools[0])).toEqual(['id', 'name', 'tokens']);
    expect(doc.servers[0].tools[0].id).toBe('notes.search_notes');
    expect(doc.totals).toEqual({
      toolCount: 9,
      tokens: { full: 859, lossless: 792, compact: 747, minimal: 290, meta: 442 },
      instructionsTokens: 12,
    });
    expect(doc.findings[0]).toEqual({
      code: 'TOOL_NAME_INVALID',
      severity: 'error',
      server: 'notes',
      tool: 'list notes',
      message: 'Tool name "list notes" does not match ^[a-zA-Z0-9_-]{1,64}$; some model APIs reject it.',
    });
    expect(r.stderr).toBe('');
  });

  it('audit-findings: --fail-on warning and --fail-on error exit 1; without --fail-on exit 0', async () => {
    const box = sandbox();
    expect(
      (await runCli(['--snapshot', snap('audit-failed'), '-s', 'clock', 'audit', '--fail-on', 'info'], box)).code,
    ).toBe(0);
    expect((await runCli(['--snapshot', snap('audit-findings'), 'audit', '--fail-on', 'warning'], box)).code).toBe(1);
    expect((await runCli(['--snapshot', snap('audit-findings'), 'audit', '--fail-on', 'error'], box)).code).toBe(1);
  });

  it('audit-failed: a failed server gives exit 3, also over --fail-on (highest wins)', async () => {
    const box = sandbox();
    const r = await runCli(['--snapshot', snap('audit-failed'), '--json', 'audit'], box);
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.stdout);
    expect(doc.servers[1]).toEqual({
      name: 'broken',
      status: 'error',
      error: 'Server exited with code 1 before initialize',
      toolCount: 0,
      tokens: { full: 0, lossless: 0, compact: 0, minimal: 0 },
      instructionsTokens: 0,
      tools: [],
    });
    expect(doc.findings.map((f: { code: string }) => f.code)).toEqual(['SERVER_FAILED']);
    expect((await runCli(['--snapshot', snap('audit-failed'), 'audit', '--fail-on', 'error'], box)).code).toBe(3);
  });

  it('many-tools: more than 40 tools is a setup-wide warning', async () => {
    const r = await runCli(['--snapshot', snap('many-tools'), '--json', 'audit', '--fail-on', 'warning'], sandbox());
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.findings.filter((f: { code: string }) => f.code === 'TOO_MANY_TOOLS')).toEqual([
      expect.objectContaining({ severity: 'warning', server: '*', value: 47, limit: 40 }),
    ]);
  });

  it('writes the count cache and gives identical figures from it on the second run', async () => {
    const box = sandbox();
    const first = await runCli(['--snapshot', snap('audit-findings'), '--json', 'audit'], box);
    const file = join(box.env.MCP_SMART_CACHE_DIR as string, 'token-counts', 'o200k_base.json');
    expect(existsSync(file)).toBe(true);
    const cached = JSON.parse(readFileSync(file, 'utf8'));
    expect(cached.format).toBe('mcp-smart/token-counts@1');
    expect(Object.keys(cached.counts).length).toBeGreaterThan(30);
    const second = await runCli(['--snapshot', snap('audit-findings'), '--json', 'audit'], box);
    expect(second.stdout).toBe(first.stdout);
  });

  it('--no-cache writes no count cache', async () => {
    const box = sandbox();
    await runCli(['--snapshot', snap('audit-findings'), '--no-cache', '--json', 'audit'], box);
    expect(existsSync(join(box.env.MCP_SMART_CACHE_DIR as string, 'token-counts'))).toBe(false);
  });

  it('--encoding cl100k_base and --render cline change the figures', async () => {
    const box = sandbox();
    const cl = JSON.parse(
      (await runCli(['--snapshot', snap('audit-findings'), '--encoding', 'cl100k_base', '--json', 'audit'], box))
        .stdout,
    );
    expect(cl.encoding).toBe('cl100k_base');
    expect(cl.totals.tokens.full).toBe(855);
    const cline = JSON.parse(
      (await runCli(['--snapshot', snap('audit-findings'), '--json', 'audit', '--render', 'cline'], box)).stdout,
    );
    expect(cline.render).toBe('cline');
    expect(cline.totals.tokens.full).toBe(1440);
  });

  it('--anthropic-count without ANTHROPIC_API_KEY is a usage error naming the variable', async () => {
    const r = await runCli(['--snapshot', snap('audit-findings'), '--json', 'audit', '--anthropic-count'], sandbox());
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual({
      code: 'MISSING_API_KEY',
      message: expect.stringContaining('ANTHROPIC_API_KEY'),
    });
  });

  it('a bad --window names the flag', async () => {
    const r = await runCli(['--snapshot', snap('audit-findings'), 'audit', '--window', 'lots'], sandbox());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--window');
  });

  it('table output: shares of the window, top tools, findings, and the Claude approximation note', async () => {
    const r = await runCli(
      ['--snapshot', snap('audit-findings'), 'audit', '--top', '3', '--window', '1000'],
      sandbox(),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Tool context: 859 tokens for 9 tools on 2 servers — 85.9% of a 1,000-token window');
    expect(r.stdout).toContain('Most expensive tools (top 3)');
    expect(r.stdout).toContain('notes.pick_country');
    expect(r.stdout).toMatch(/│ 3 │ notes\.configure_deep/);
    expect(r.stdout).not.toMatch(/│ 4 │/);
    expect(r.stdout).toMatch(/ERROR\s+TOOL_NAME_INVALID\s+notes\.list notes/);
    expect(r.stdout).toContain('an approximation');
  });

  it('markdown output has tables and the approximation note', async () => {
    const r = await runCli(['--snapshot', snap('audit-failed'), '--format', 'markdown', 'audit'], sandbox());
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('| clock | ok | 2 |');
    expect(r.stdout).toContain('| broken | FAILED | 0 |');
    expect(r.stdout).toContain('| ERROR | SERVER_FAILED | broken |');
    expect(r.stdout).toContain('approximation');
  });
});
