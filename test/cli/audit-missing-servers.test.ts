// Issue 36.4, no silent shrinkage, in `audit`: beside a committed baseline, a server the baseline had that this run
// did not reach — one made to fail, one held because nobody approved the project's mcp-smart.config.json, one such
// held definition that shadows the user's own server of the same name — is a
// SERVER_MISSING finding naming the server, why and its tools, in the table, --json and --html; a server removed
// from the config on purpose is not. Real server processes (fixtures/servers/catalog-server.mjs).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

interface AuditDoc {
  baseline?: string;
  missing?: { server: string; reason: string; tools: string[]; tokens: number; shadows?: string[] }[];
  servers: { name: string; status: string; toolCount: number }[];
  findings: { code: string; severity: string; server: string; message: string; value?: number }[];
}

const entry = (catalog: string) => ({
  command: process.execPath,
  args: [fixture('servers', 'catalog-server.mjs'), catalog],
});
/** A run's own HOME, cache and data folders (in the test's temporary folder `dir`). */
const isolatedEnv = (dir: string, home: string): Record<string, string> => ({
  HOME: home,
  NO_COLOR: '1',
  MCP_SMART_CACHE_DIR: join(dir, 'cache'),
  MCP_SMART_DATA_DIR: join(dir, 'data'),
});
const servers = (map: Record<string, unknown>): string => JSON.stringify({ mcpServers: map }, null, 2);

describe('audit: servers of the baseline that were not reached', () => {
  it('names a failed and an unapproved server as SERVER_MISSING findings; a deliberate removal is not one', async () => {
    const dir = tempDir('mcp-smart-audit-missing-');
    const home = join(dir, 'home');
    const project = join(dir, 'project');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    mkdirSync(project);
    const userFile = join(home, '.cursor', 'mcp.json');
    const tiny = entry(fixture('servers', 'catalogs', 'tiny.json'));
    // The user's own Cursor servers (no gate); the project's own file names one more, which needs an approval.
    writeFileSync(userFile, servers({ tiny, words: entry(fixture('servers', 'catalogs', 'duplicate-names.json')) }));
    writeFileSync(
      join(project, 'mcp-smart.config.json'),
      servers({ held: entry(fixture('servers', 'catalogs', 'huge-schema.json')) }),
    );
    const env = isolatedEnv(dir, home);
    const approved = (argv: string[]) => runCli(argv, { cwd: project, env: { ...env, MCP_SMART_TRUST_PROJECT: '1' } });
    const cli = (argv: string[]) => runCli(argv, { cwd: project, env: { ...env, MCP_SMART_TRUST_PROJECT: '' } });

    const update = await approved(['check', '--update', '--json']);
    expect(update.code, update.stderr).toBe(0);
    const baseline = JSON.parse(readFileSync(join(project, 'mcp-smart.lock.json'), 'utf8')) as {
      servers: Record<string, { tokens: number; tools: Record<string, unknown> }>;
    };
    expect(Object.keys(baseline.servers).sort()).toEqual(['held', 'tiny', 'words']);
    const idsOf = (name: string): string[] =>
      Object.keys(baseline.servers[name]!.tools)
        .map((t) => `${name}.${t}`)
        .sort();

    // With everything reached (approved), nothing is missing.
    const whole = JSON.parse((await approved(['audit', '--json'])).stdout) as AuditDoc;
    expect(whole.baseline).toBe('mcp-smart.lock.json');
    expect(whole.missing).toEqual([]);
    expect(whole.findings.filter((f) => f.code === 'SERVER_MISSING')).toEqual([]);

    // The project is not approved on this run: held waits, and only a finding says so (exit 0; --fail-on error: 1).
    const held = await cli(['audit', '--json']);
    expect(held.code, held.stderr).toBe(0);
    const heldDoc = JSON.parse(held.stdout) as AuditDoc;
    expect(heldDoc.servers.map((s) => s.name)).toEqual(['tiny', 'words']);
    expect(heldDoc.findings.filter((f) => f.code === 'SERVER_MISSING').map((f) => f.server)).toEqual(['held']);
    expect((await cli(['audit', '--fail-on', 'error'])).code).toBe(1);
    expect((await approved(['audit', '--fail-on', 'error'])).code).toBe(0);

    // words now fails to start (its catalog file is gone); the project is not approved on this run.
    writeFileSync(userFile, servers({ tiny, words: entry(join(dir, 'no-such-catalog.json')) }));
    const run = await cli(['audit', '--json']);
    expect(run.code, run.stderr).toBe(3); // a server failed: exit 3, the rest still reported
    const doc = JSON.parse(run.stdout) as AuditDoc;
    expect(doc.servers.map((s) => [s.name, s.status])).toEqual([
      ['tiny', 'ok'],
      ['words', 'error'],
    ]);
    expect(doc.missing!.map((m) => [m.server, m.reason, m.tools, m.tokens])).toEqual([
      ['held', 'pending-approval', idsOf('held'), baseline.servers.held!.tokens],
      ['words', 'failed', idsOf('words'), baseline.servers.words!.tokens],
    ]);
    const missing = doc.findings.filter((f) => f.code === 'SERVER_MISSING');
    expect(missing.map((f) => [f.server, f.severity, f.value])).toEqual([
      ['held', 'error', baseline.servers.held!.tokens],
      ['words', 'error', baseline.servers.words!.tokens],
    ]);
    expect(missing[0]!.message).toContain('it waits for approval in mcp-smart');
    expect(missing[0]!.message).toContain(idsOf('held')[0]);
    expect(missing[1]!.message).toContain('it failed: ');
    expect(missing[1]!.message).toContain('if it is gone for good, run: mcp-smart check --update');
    // The table names them; the HTML report holds them.
    const html = join(dir, 'audit.html');
    const table = await cli(['audit', '--html', html]);
    expect(table.stdout).toContain('SERVER_MISSING');
    expect(table.stdout).toMatch(/Server held of the baseline mcp-smart\.lock\.json was not reached/);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('SERVER_MISSING');
    expect(page).toContain('Server words of the baseline mcp-smart.lock.json was not reached');

    // Removed on purpose: the project file no longer names held, the user config no longer names words. Not missing.
    writeFileSync(join(project, 'mcp-smart.config.json'), servers({}));
    writeFileSync(userFile, servers({ tiny }));
    const removed = await cli(['audit', '--json']);
    expect(removed.code, removed.stderr).toBe(0);
    const gone = JSON.parse(removed.stdout) as AuditDoc;
    expect(gone.missing).toEqual([]);
    expect(gone.findings.filter((f) => f.code === 'SERVER_MISSING')).toEqual([]);

    // A baseline named on the command line must exist (exit 2, before connecting); without one, nothing is compared.
    const none = await cli(['audit', '--baseline', 'nope.lock.json', '--json']);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain('BASELINE_MISSING');
  }, 120_000);

  it("names a held project definition that shadows the user's own server of the same name", async () => {
    const dir = tempDir('mcp-smart-audit-shadow-');
    const home = join(dir, 'home');
    const project = join(dir, 'project');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    mkdirSync(project);
    const userFile = join(home, '.cursor', 'mcp.json');
    // notes is the user's own; the project's file defines another notes, which wins the merge (project first).
    writeFileSync(
      userFile,
      servers({
        notes: entry(fixture('servers', 'catalogs', 'tiny.json')),
        clock: entry(fixture('servers', 'catalogs', 'tiny.json')),
      }),
    );
    writeFileSync(
      join(project, 'mcp-smart.config.json'),
      servers({ notes: entry(fixture('servers', 'catalogs', 'duplicate-names.json')) }),
    );
    const env = isolatedEnv(dir, home);
    const update = await runCli(['check', '--update'], { cwd: project, env: { ...env, MCP_SMART_TRUST_PROJECT: '1' } });
    expect(update.code, update.stderr).toBe(0);
    const run = await runCli(['audit', '--json'], { cwd: project, env: { ...env, MCP_SMART_TRUST_PROJECT: '' } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as AuditDoc;
    expect(doc.servers.map((s) => s.name)).toEqual(['clock']);
    expect(doc.missing!.map((m) => [m.server, m.reason, m.shadows])).toEqual([
      ['notes', 'pending-approval', [userFile]],
    ]);
    const finding = doc.findings.find((f) => f.code === 'SERVER_MISSING')!;
    expect(finding.message).toContain(`(this definition shadows ${userFile})`);
  }, 120_000);
});
