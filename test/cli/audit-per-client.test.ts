// audit per client: a machine where Claude Code and Cursor each load their own servers (real fixture servers,
// configs in a temporary HOME). Totals per client, duplicates only within a client, a client's own definition of
// a name another client also defines, Cursor's documented tool limit.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditClient } from '../../src/core/audit/index.js';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const root = tempDir('mcp-smart-per-client-');
const home = join(root, 'home');
const project = join(root, 'project');
const env = { NO_COLOR: '1', HOME: home, MCP_SMART_CACHE_DIR: join(root, 'cache') };
const SERVER = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');
const srv = (catalog: string): object => ({ command: process.execPath, args: [SERVER, catalog] });

interface Doc {
  servers: { name: string; toolCount: number; tokens: { full: number } }[];
  clients: AuditClient[];
  findings: { code: string; severity: string; server: string; tool?: string; client?: string; message: string }[];
}

beforeAll(() => {
  mkdirSync(join(home, '.cursor'), { recursive: true });
  mkdirSync(project, { recursive: true });
  // 41 tools: one more than Cursor sends to the model.
  const tools = Array.from({ length: 41 }, (_, i) => ({
    name: `op_${i}`,
    description: `Operation number ${i} of the big catalogue server.`,
    inputSchema: { type: 'object', properties: {} },
  }));
  writeFileSync(join(root, 'big.json'), JSON.stringify({ serverInfo: { name: 'big', version: '1' }, tools }));
  // The tiny catalogue again with camelCase names: near-identical tools under other names.
  const tiny = JSON.parse(readFileSync(TINY, 'utf8')) as { tools: { name: string }[] };
  for (const t of tiny.tools) t.name = t.name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  writeFileSync(join(root, 'camel.json'), JSON.stringify(tiny));
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({ mcpServers: { notes: srv(TINY), notes2: srv(TINY), camel: srv(join(root, 'camel.json')) } }),
  );
  // Cursor's `notes` is another server than Claude Code's `notes`; `notes-copy` is Claude Code's notes again.
  writeFileSync(
    join(home, '.cursor', 'mcp.json'),
    JSON.stringify({ mcpServers: { notes: srv(join(root, 'big.json')), 'notes-copy': srv(TINY) } }),
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('audit without --client reports each client apart', () => {
  let doc: Doc;
  beforeAll(async () => {
    const r = await runCli(['--no-cache', '--json', 'audit'], { env, cwd: project });
    expect(r.code).toBe(0);
    doc = JSON.parse(r.stdout) as Doc;
  });

  it('lists the servers each client loads, with totals per client', () => {
    const byName = new Map(doc.servers.map((s) => [s.name, s]));
    const claude = doc.clients.find((c) => c.client === 'claude-code')!;
    const cursor = doc.clients.find((c) => c.client === 'cursor')!;
    expect(doc.clients.map((c) => c.client)).toEqual(['claude-code', 'cursor']);
    expect(claude.servers).toEqual(['notes', 'notes2', 'camel']);
    expect(claude.toolCount).toBe(15);
    expect(claude.tokens.full).toBe(
      byName.get('notes')!.tokens.full + byName.get('notes2')!.tokens.full + byName.get('camel')!.tokens.full,
    );
    expect(claude.toolLimit).toBeUndefined();
    // Cursor still loads its own `notes` (41 tools), though Claude Code's won the name in the merged list.
    expect(cursor.servers).toEqual(['notes', 'notes-copy']);
    expect(cursor.toolCount).toBe(46);
    expect(cursor.tokens.full).toBe(1496);
    expect(cursor.tokens.full).toBeGreaterThan(
      byName.get('notes')!.tokens.full + byName.get('notes-copy')!.tokens.full,
    );
    expect(cursor.toolLimit).toBe(40);
  });

  it('checks duplicates within a client only', () => {
    const dups = doc.findings.filter((f) => f.code === 'DUPLICATE_TOOL_NAME');
    expect(dups.map((f) => [f.client, f.tool])).toEqual([
      ['claude-code', 'create_note'],
      ['claude-code', 'current_time'],
      ['claude-code', 'delete_note'],
      ['claude-code', 'echo'],
      ['claude-code', 'search_notes'],
    ]);
    // notes-copy (Cursor) has the same tools as notes (Claude Code): no request carries both.
    expect(dups.every((f) => !f.message.includes('notes-copy'))).toBe(true);
    const similar = doc.findings.filter((f) => f.code === 'DUPLICATE_TOOL_SIMILAR');
    expect(similar.map((f) => f.message)).toContain(
      'camel.searchNotes, notes.search_notes, notes2.search_notes differ only in case or separators in Claude Code; the model may pick either.',
    );
    expect(similar.every((f) => f.client === 'claude-code')).toBe(true);
  });

  it("fires CLIENT_TOOL_LIMIT for Cursor's documented 40 tools, and no setup-wide TOO_MANY_TOOLS", () => {
    const limit = doc.findings.filter((f) => f.code === 'CLIENT_TOOL_LIMIT');
    expect(limit).toEqual([
      {
        code: 'CLIENT_TOOL_LIMIT',
        severity: 'warning',
        server: '*',
        client: 'cursor',
        message:
          'Cursor loads 46 tools; it documents a limit of 40 (https://docs.cursor.com/context/model-context-protocol), so some are never offered to the model.',
        value: 46,
        limit: 40,
      },
    ]);
    expect(doc.findings.filter((f) => f.code === 'TOO_MANY_TOOLS')).toEqual([]);
  });

  it('the table, markdown and HTML show the per-client section', async () => {
    const table = await runCli(['audit'], { env, cwd: project });
    expect(table.stdout).toMatch(/Per client \(2 clients\)/);
    expect(table.stdout).toMatch(/│ Cursor\s+│\s+2 │\s+46 │\s+40 \(over\) │\s+1,496 │/);
    expect(table.stdout).toContain('  Cursor: notes, notes-copy');
    const md = await runCli(['--format', 'markdown', 'audit'], { env, cwd: project });
    expect(md.stdout).toContain('### Per client');
    expect(md.stdout).toMatch(/\| Cursor \| 2 \| 46 \| 40 \(over\) \| 1,496 \|/);
    const html = join(root, 'report.html');
    const h = await runCli(['audit', '--html', html], { env, cwd: project });
    expect(h.code).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<h2>Per client</h2>');
    expect(page).toMatch(/<tr data-client="cursor"><td>Cursor<\/td><td>notes, notes-copy<\/td><td class="n">46<\/td>/);
  });
});

describe('audit --client cursor', () => {
  it('takes exactly the servers Cursor loads, its own notes included', async () => {
    const r = await runCli(['--no-cache', '--client', 'cursor', '--json', 'audit'], { env, cwd: project });
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.servers.map((s) => [s.name, s.toolCount])).toEqual([
      ['notes', 41],
      ['notes-copy', 5],
    ]);
    expect(doc.clients.map((c) => [c.client, c.toolCount, c.tokens.full])).toEqual([['cursor', 46, 1496]]);
  });
});

describe('audit per client from the tool-list cache', () => {
  it('says "from cache" once, though the clients\' own definitions are connected apart', async () => {
    const cached = { ...env, MCP_SMART_CACHE_DIR: join(root, 'cache-notes') };
    const cold = await runCli(['--json', 'audit'], { env: cached, cwd: project });
    expect(cold.code).toBe(0);
    expect(cold.stderr).not.toContain('from cache');
    const warm = await runCli(['--json', 'audit'], { env: cached, cwd: project });
    expect(warm.code).toBe(0);
    expect(warm.stderr.match(/from cache/g)).toEqual(['from cache']);
  });
});
