// Issue 36, no silent shrinkage: a server of the baseline that this run did not reach because it waits for an
// approval (its client's, or mcp-smart's own) is named with its tools and fails the gate (exit 1); a server removed
// from the config on purpose is a removal as before; `check --update` takes the new state and the gate passes again.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-check-missing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface CheckDoc {
  passed: boolean;
  totals: { before: number; after: number };
  missing: { server: string; reason: string; tools: string[]; tokens: number }[];
  failures: { code: string; message: string }[];
  changes: { id: string; kind: string }[];
}

const entry = (catalog: string) => ({
  command: process.execPath,
  args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', catalog)],
});

describe('check: servers of the baseline that were not reached', () => {
  it('a client-held server fails the gate by name; a deliberate removal does not; --update takes the new state', async () => {
    const project = join(dir, 'project');
    mkdirSync(join(project, '.cursor'), { recursive: true });
    // tiny comes from Cursor's project file (no client gate); dup from .mcp.json, which Claude Code has not approved.
    writeFileSync(join(project, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { tiny: entry('tiny.json') } }));
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { dup: entry('duplicate-names.json') } }));
    const env = { HOME: join(dir, 'home'), NO_COLOR: '1', MCP_SMART_CACHE_DIR: join(dir, 'cache') };
    const cli = (argv: string[]) => runCli(argv, { cwd: project, env });

    // The baseline as a run that read both files by name took it.
    const update = await cli(['-c', '.cursor/mcp.json', '-c', '.mcp.json', 'check', '--update', '--json']);
    expect(update.code, update.stderr).toBe(0);

    const gate = await cli(['check', '--json']);
    expect(gate.code, gate.stderr).toBe(1);
    const doc = JSON.parse(gate.stdout) as CheckDoc;
    expect(doc.passed).toBe(false);
    expect(doc.missing).toHaveLength(1);
    expect(doc.missing[0]).toMatchObject({ server: 'dup', reason: 'client-gated' });
    expect(doc.missing[0]!.tools.length).toBeGreaterThan(0);
    expect(doc.missing[0]!.tools.every((t) => t.startsWith('dup.'))).toBe(true);
    // Left out of both sides: the totals do not show a shrinkage that passes.
    expect(doc.totals.after).toBe(doc.totals.before);
    expect(doc.changes).toEqual([]);
    expect(doc.failures.map((f) => f.code)).toEqual(['SERVER_MISSING']);
    expect(doc.failures[0]!.message).toContain('pending approval in Claude Code');
    expect(doc.failures[0]!.message).toContain('if it is gone for good, run: mcp-smart check --update');

    const table = await cli(['check']);
    expect(table.code).toBe(1);
    expect(table.stdout).toContain('✖ SERVER_MISSING: server dup of the baseline was not reached');

    // Removed from the config on purpose: its tools count as removed, nothing is missing, the gate passes.
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: {} }));
    const removed = await cli(['check', '--json']);
    expect(removed.code, removed.stderr).toBe(0);
    const gone = JSON.parse(removed.stdout) as CheckDoc;
    expect(gone.missing).toEqual([]);
    expect(gone.changes.length).toBe(doc.missing[0]!.tools.length);
    expect(gone.changes.every((c) => c.kind === 'removed' && c.id.startsWith('dup.'))).toBe(true);

    // Back, still held: the user accepts the new state; the held server leaves the baseline with a note.
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { dup: entry('duplicate-names.json') } }));
    expect((await cli(['check'])).code).toBe(1);
    const accepted = await cli(['check', '--update']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).toContain('server dup (client-gated:');
    expect((await cli(['check'])).code).toBe(0);
  }, 90_000);
});
