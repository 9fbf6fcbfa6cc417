// Issue 36: a project whose .mcp.json Claude Code has not approved (every CI machine). `trust` says what it can and
// cannot approve and prints a command that works; init names the file in every command it writes; the ::error hint of
// a failed check repeats the run's own setup words, so `check --update` works as printed.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-unapproved-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Shell words of a printed command line (these have no quotes), without the leading `mcp-smart`. */
const wordsOf = (line: string): string[] => {
  const words = line.trim().split(/\s+/);
  expect(words[0]).toBe('mcp-smart');
  return words.slice(1);
};

describe('unapproved project: the printed commands work as printed', () => {
  it('trust explains the client gate; init names .mcp.json; the check hint carries --snapshot', async () => {
    const project = join(dir, 'project');
    mkdirSync(project);
    const server = [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')];
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: server } } }),
    );
    // No approval from the test environment: the gate is what this test is about.
    const env = {
      HOME: join(dir, 'home'),
      NO_COLOR: '1',
      MCP_SMART_CACHE_DIR: join(dir, 'cache'),
      MCP_SMART_TRUST_PROJECT: '',
    };
    const cli = (argv: string[]) => runCli(argv, { cwd: project, env });

    const dump = await cli(['dump']);
    expect(dump.code, dump.stdout + dump.stderr).toBe(2);
    expect(dump.stderr).toContain('pending approval in Claude Code');
    const refused = await cli(['init', '--yes', '--github']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('approve with `mcp-smart trust`');

    const trust = await cli(['trust']);
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain('Approved 1 server of');
    expect(trust.stdout).toContain('Still not loaded by their client: tiny (pending approval in Claude Code).');
    const printed = trust.stdout.split('\n').find((l) => l.includes('mcp-smart --config'));
    expect(printed?.trim()).toBe('mcp-smart --config .mcp.json audit');
    const audit = await cli([...wordsOf(printed!), '--json']);
    expect(audit.code, audit.stderr).toBe(0);
    expect((JSON.parse(audit.stdout) as { totals: { toolCount: number } }).totals.toolCount).toBe(5);

    const init = await cli(['init', '--yes', '--github', '--ci-snapshot']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stderr).toContain('init reads .mcp.json by name (--config), as the workflow will.');
    expect(init.stdout).toContain('refresh it with `mcp-smart --config .mcp.json dump -o mcp-smart.snapshot.json`');
    const wf = readFileSync(join(project, '.github', 'workflows', 'mcp-smart.yml'), 'utf8');
    expect(wf).toMatch(/^# {3}npx --yes -- mcp-smart@\S+ --config \.mcp\.json dump -o mcp-smart\.snapshot\.json$/m);
    expect(wf).toMatch(
      /^ {8}run: npx --yes -- mcp-smart@\S+ --snapshot mcp-smart\.snapshot\.json check --format github$/m,
    );

    // The snapshot grows (as a refresh after a server change would write it): the gate fails, and its hint works.
    const snapFile = join(project, 'mcp-smart.snapshot.json');
    const snap = JSON.parse(readFileSync(snapFile, 'utf8')) as { servers: { tools: { description: string }[] }[] };
    snap.servers[0]!.tools[0]!.description += ' Reads every file the user names, logs and reports included.'.repeat(6);
    writeFileSync(snapFile, JSON.stringify(snap));
    const gate = await cli(['--snapshot', 'mcp-smart.snapshot.json', 'check', '--format', 'github']);
    expect(gate.code).toBe(1);
    const hint = /If intended, run: (mcp-smart [^:]*?) and commit/.exec(gate.stdout)?.[1];
    expect(hint).toBe('mcp-smart --snapshot mcp-smart.snapshot.json check --update');
    const update = await cli(wordsOf(hint!));
    expect(update.code, update.stderr).toBe(0);
    const again = await cli(['--snapshot', 'mcp-smart.snapshot.json', 'check']);
    expect(again.code, again.stdout).toBe(0);
  }, 60_000);
});
