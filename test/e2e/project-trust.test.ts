// mcp-smart's own project gate (issue 30), with the built CLI and a real fixture server that writes a marker file the
// moment it starts: a server from a project file nobody approved is never started, by any command; approval
// (`mcp-smart trust`, --trust-project, -c <file>) starts it; an edited definition asks again.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, requireBuild } from '../helpers/paths.js';
import { sandboxEnv, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const root = tempDir('mcp-smart-trust-e2e-');
const project = join(root, 'project');
const home = join(root, 'home');
const marker = join(root, 'started.marker');
const SERVER = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');

function writeProject(extraArg: string[] = []): void {
  mkdirSync(join(project, '.cursor'), { recursive: true });
  const entry = { command: process.execPath, args: [SERVER, TINY, '--marker', marker, ...extraArg] };
  writeFileSync(join(project, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { notes: entry } }));
}

// Not approved: MCP_SMART_TRUST_PROJECT is emptied (the helpers set it for every other test).
const untrusted = sandboxEnv(home, { MCP_SMART_TRUST_PROJECT: '' });
const run = (args: string[], env = untrusted) =>
  spawnCli(['--no-cache', ...args], { cwd: project, env, timeoutMs: 30_000 });

beforeAll(() => {
  requireBuild();
  mkdirSync(home, { recursive: true });
  writeProject();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a project server nobody approved is not started', () => {
  it.each([
    ['audit', ['audit']],
    ['dump', ['dump']],
    ['discover', ['discover', 'find a note']],
    ['budget', ['budget', '--max', '100000']],
    ['check', ['check']],
    ['condense', ['condense']],
    ['init', ['init', '--yes']],
    ['replay', ['replay', fixture('sessions', 'claude-code')]],
    ['login', ['login', 'notes']],
  ])('%s: exit 2, the server not started, the way to approve named', async (_name, args) => {
    rmSync(marker, { force: true });
    const r = await run(args);
    expect(existsSync(marker)).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('mcp-smart trust');
    expect(r.stderr).toContain('--trust-project');
  });

  it('--json: the error document carries its code and the way to approve', async () => {
    rmSync(marker, { force: true });
    const r = await run(['audit', '--json']);
    expect(existsSync(marker)).toBe(false);
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    expect(doc.error.code).toBe('PROJECT_NOT_TRUSTED');
    expect(doc.error.message).toContain('mcp-smart trust');
  });

  it('serve (stdio): the server is not started and a note says why', async () => {
    rmSync(marker, { force: true });
    const r = await run(['serve', '--no-learn']);
    expect(existsSync(marker)).toBe(false);
    expect(r.stderr).toContain('notes');
    expect(r.stderr).toContain('mcp-smart trust');
  });

  it('servers lists it as pending approval with the command to approve, and starts nothing', async () => {
    rmSync(marker, { force: true });
    const r = await run(['servers']);
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(r.stdout).toMatch(/│ notes\s+│ stdio\s+│ \.cursor\/mcp\.json\s+│ no \(pending approval\)/);
    expect(r.stdout).toContain('run `mcp-smart trust`, or pass --trust-project for one run.');
  });
});

describe('pending servers do not fail the others', () => {
  it('a user-level server still runs: exit 0, the pending one noted on stderr and not started', async () => {
    const userHome = join(root, 'home-with-user-server');
    mkdirSync(join(userHome, '.cursor'), { recursive: true });
    const entry = { command: process.execPath, args: [SERVER, TINY] };
    writeFileSync(join(userHome, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { mine: entry } }));
    rmSync(marker, { force: true });
    const r = await run(['audit', '--json'], sandboxEnv(userHome, { MCP_SMART_TRUST_PROJECT: '' }));
    expect(existsSync(marker)).toBe(false);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { servers: { name: string }[] };
    expect(doc.servers.map((x) => x.name)).toEqual(['mine']);
    expect(r.stderr).toContain('note: notes (');
    expect(r.stderr).toContain('was not started: pending approval');
  });
});

describe('approval starts it', () => {
  it('--trust-project (and MCP_SMART_TRUST_PROJECT=1) start it for one run, recording nothing', async () => {
    rmSync(marker, { force: true });
    const flag = await run(['--trust-project', 'audit', '--json']);
    expect(flag.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker, { force: true });
    const env = await run(['audit', '--json'], { ...untrusted, MCP_SMART_TRUST_PROJECT: '1' });
    expect(env.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker, { force: true });
    expect((await run(['audit'])).code).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });

  it('-c naming the project file is the approval of that file', async () => {
    rmSync(marker, { force: true });
    const r = await run(['-c', join(project, '.cursor', 'mcp.json'), 'audit', '--json']);
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it('`mcp-smart trust` records it; a changed definition asks again', async () => {
    const t = await run(['trust']);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('Approved 1 server');
    expect(t.stdout).toContain('notes');
    rmSync(marker, { force: true });
    expect((await run(['audit', '--json'])).code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    writeProject(['--page-size', '2']);
    rmSync(marker, { force: true });
    const changed = await run(['audit']);
    expect(changed.code).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });
});
