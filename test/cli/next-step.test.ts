// servers and audit end with one `Next:` line on stderr under the table view, picked by the state of the setup,
// and the command it names runs.
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trustedHome } from '../helpers/config-request.js';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const BASE = fixture('snapshots', 'check-base.json');
const tiny = {
  command: process.execPath,
  args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')],
};

const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

/**
 * A project whose .mcp.json (Claude Code's project file) lists two live fixture servers, with a home in which
 * Claude Code has approved them (else Claude Code would not load them, and neither would mcp-smart).
 */
function project(): { cwd: string; env: Record<string, string> } {
  const cwd = tempDir('mcp-smart-next-step-');
  writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { notes: tiny, clock: tiny } }));
  return { cwd, env: { HOME: trustedHome(cwd, undefined, homes) } };
}

const nextLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('Next: '));
/** The command a Next line names, as argv (the words between the first pair of backticks, minus `mcp-smart`). */
const named = (line: string): string[] => /`([^`]+)`/.exec(line)![1]!.split(' ').slice(1);

describe('the next step servers and audit end with', () => {
  it('servers: no baseline yet → audit, then init; with one → adopt the client', async () => {
    const io = project();
    const first = await runCli(['servers'], io);
    expect(first.code).toBe(0);
    expect(nextLines(first.stderr)).toEqual([
      'Next: `mcp-smart audit` shows what these servers cost; `mcp-smart init` then records the baseline (mcp-smart.lock.json) that `check` gates on.',
    ]);
    expect(first.stdout).not.toContain('Next:');

    const update = await runCli(['--no-cache', 'check', '--update'], io);
    expect(update.code, update.stderr).toBe(0);
    const second = await runCli(['servers'], io);
    expect(nextLines(second.stderr)).toEqual([
      'Next: `mcp-smart adopt claude-code` moves the 2 servers Claude Code loads behind `mcp-smart serve`, and prints the way back.',
    ]);
    // -s counts only the servers it names, and is repeated in the command.
    const one = await runCli(['-s', 'notes', 'servers'], io);
    expect(nextLines(one.stderr)).toEqual([
      'Next: `mcp-smart -s notes adopt claude-code` moves the server Claude Code loads behind `mcp-smart serve`, and prints the way back.',
    ]);
  });

  it('never under --json or markdown, and not without servers', async () => {
    const io = project();
    for (const argv of [
      ['servers', '--json'],
      ['servers', '--format', 'markdown'],
      ['--snapshot', BASE, 'audit', '--json'],
    ]) {
      const r = await runCli(argv, io);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('Next:');
      expect(r.stdout).not.toContain('Next:');
    }
    const empty = await runCli(['servers'], { cwd: tempDir('mcp-smart-next-step-') });
    expect(empty.stdout).toContain('No MCP servers found.');
    expect(empty.stderr).not.toContain('Next:');
  });

  it('audit over the budget → the budget command, which runs and prints a plan', async () => {
    const cwd = tempDir('mcp-smart-next-step-');
    const r = await runCli(['--snapshot', BASE, 'audit', '--window', '5000'], { cwd });
    expect(r.code).toBe(0);
    const lines = nextLines(r.stderr);
    expect(lines).toEqual([
      `Next: \`mcp-smart --snapshot ${BASE} budget --max 5000\` prints a plan that fits: the tools take 807 tokens, over the 500 allowed (10.0% of 5,000).`,
    ]);
    const budget = await runCli(named(lines[0]!), { cwd });
    expect(budget.code).toBe(1);
    expect(budget.stdout).toContain('OVER: tool context uses 807 of 500 tokens allowed');
    expect(budget.stdout).toContain('Plan that fits');
  });

  it("audit: the config's budget decides; no baseline → init / check --update; with one → check", async () => {
    const cwd = tempDir('mcp-smart-next-step-');
    copyFileSync(BASE, join(cwd, 'snap.json'));
    writeFileSync(join(cwd, 'mcp-smart.config.json'), JSON.stringify({ budget: { max: 4000, limit: 900 } }));
    const r = await runCli(['--snapshot', 'snap.json', 'audit', '--window', '5000'], { cwd });
    expect(nextLines(r.stderr)).toEqual([
      'Next: `mcp-smart --snapshot snap.json init` records these figures as the baseline (mcp-smart.lock.json) that `check` gates on (`mcp-smart --snapshot snap.json check --update` writes the baseline alone).',
    ]);
    const update = await runCli(named(/\(`([^`]+)`/.exec(nextLines(r.stderr)[0]!)![0].slice(1)), { cwd });
    expect(update.code, update.stderr).toBe(0);
    const after = await runCli(['--snapshot', 'snap.json', 'audit'], { cwd });
    const lines = nextLines(after.stderr);
    expect(lines).toEqual([
      'Next: `mcp-smart --snapshot snap.json check` compares them with the baseline mcp-smart.lock.json and exits 1 when they grew.',
    ]);
    const check = await runCli(named(lines[0]!), { cwd });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('PASS');
  });

  it('audit of a client config with a baseline → adopt that client', async () => {
    const io = project();
    const update = await runCli(['--no-cache', 'check', '--update'], io);
    expect(update.code, update.stderr).toBe(0);
    const r = await runCli(['--no-cache', 'audit'], io);
    expect(r.code, r.stderr).toBe(0);
    expect(nextLines(r.stderr)).toEqual([
      'Next: `mcp-smart adopt claude-code` moves the 2 servers Claude Code loads behind `mcp-smart serve`, and prints the way back.',
    ]);
  });
});
