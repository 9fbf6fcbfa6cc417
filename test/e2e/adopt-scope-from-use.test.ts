// adopt --scope-from-use in the real Gemini CLI (offline, temporary HOME, trusted folder): two demo servers in the
// user's settings.json, a usage store seeded with this project's calls (and another project's), `adopt gemini
// --scope-from-use --store <file>` as a user runs it, the switch it printed run in a shell as printed → Gemini sends
// the model only the tools this project used (its own includeTools on the added entry) → the printed way back →
// settings.json byte for byte. A client without a filter of its own, and a project without scope: exit 2, nothing written.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SWITCH_ENTRY } from '../../src/core/adopt/switch-plan.js';
import { demoServerDefinitions } from '../../src/core/config/demo.js';
import { projectKey } from '../../src/core/session/scope.js';
import type { ProjectUsage } from '../../src/core/session/scope.js';
import { FileUsageStore } from '../../src/core/store/file.js';
import { BIN, requireBuild } from '../helpers/paths.js';
import { RealClient, runGroup } from '../helpers/real-clients.js';

beforeAll(requireBuild);

const tool = (success: number, failure = 0) => ({ success, failure, lastUsed: 1_700_000_000_000, categories: {} });
const calls = (success: number, failure = 0) => ({ success, failure, lastUsed: 1_700_000_000_000 });

/** A file usage store: this project used memory.read_graph and filesystem.list_directory (memory.search_nodes only
 * failed, git.status is not adopted); another project used memory.create_entities. */
async function seedStore(file: string, project: string): Promise<void> {
  const projects: ProjectUsage = {
    [projectKey(project)]: {
      'memory.read_graph': calls(3),
      'memory.search_nodes': calls(0, 2),
      'filesystem.list_directory': calls(1),
      'git.status': calls(1),
    },
    [projectKey(`${project}-other`)]: { 'memory.create_entities': calls(4) },
  };
  const store = new FileUsageStore(file);
  await store.learn(
    () => ({
      delta: {
        tools: {
          'memory.read_graph': tool(3),
          'memory.search_nodes': tool(0, 2),
          'memory.create_entities': tool(4),
          'filesystem.list_directory': tool(1),
          'git.status': tool(1),
        },
      },
      sessions: {},
      projects,
    }),
    { now: 1_700_000_000_000, memory: { ttlDays: 0 } },
  );
  await store.close();
}

async function geminiWithServers(): Promise<{ client: RealClient; settings: string }> {
  const client = new RealClient('gemini');
  client.trustProject();
  const defs = await demoServerDefinitions({
    nodePath: process.execPath,
    scratchDir: join(client.tmp, 'mcp-smart-demo'),
  });
  const settings = join(client.home, '.gemini', 'settings.json');
  const doc = existsSync(settings) ? (JSON.parse(readFileSync(settings, 'utf8')) as Record<string, unknown>) : {};
  doc.mcpServers = Object.fromEntries(
    defs
      .filter((d) => d.name === 'memory' || d.name === 'filesystem')
      .map((d) => [d.name, { command: d.command, args: d.args, ...(d.env ? { env: d.env } : {}) }]),
  );
  writeFileSync(settings, `${JSON.stringify(doc, null, 2)}\n`);
  return { client, settings };
}

/** Codex with the memory and filesystem demo servers in ~/.codex/config.toml. */
async function codexWithServers(): Promise<{ client: RealClient; config: string }> {
  const client = new RealClient('codex');
  const defs = await demoServerDefinitions({
    nodePath: process.execPath,
    scratchDir: join(client.tmp, 'mcp-smart-demo'),
  });
  const config = join(client.home, '.codex', 'config.toml');
  const q = (v: string): string => JSON.stringify(v);
  const tables = defs
    .filter((d) => d.name === 'memory' || d.name === 'filesystem')
    .map((d) => {
      const env = Object.entries(d.env ?? {}).map(([k, v]) => `${k} = ${q(v)}`);
      return [
        `[mcp_servers.${d.name}]`,
        `command = ${q(d.command!)}`,
        `args = [${(d.args ?? []).map(q).join(', ')}]`,
        ...(env.length > 0 ? [`env = { ${env.join(', ')} }`] : []),
      ].join('\n');
    });
  writeFileSync(config, `${tables.join('\n\n')}\n`);
  return { client, config };
}

/** adopt as a user runs it, then the printed switch in a shell; returns the printed way back. */
async function adoptAndApply(client: RealClient, name: string, store: string): Promise<string> {
  const adopt = await smart(client, ['adopt', name, '--scope-from-use', '--store', store]);
  expect(adopt.code, adopt.stderr).toBe(0);
  const lines = adopt.stdout.split('\n');
  const apply = lines[lines.findIndex((l) => l.includes('One command, which keeps a copy')) + 1]!.trim();
  expect(apply).toContain('--scope-from-use');
  const applied = await sh(client, apply);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  return lines.find((l) => l.startsWith('To go back after --apply: '))!.slice(26);
}

const smart = (client: RealClient, args: string[]) =>
  runGroup(process.execPath, [BIN, ...args], { cwd: client.project, env: client.env, timeoutMs: 120_000 });
const sh = (client: RealClient, line: string) =>
  runGroup('/bin/sh', ['-c', line], { cwd: client.project, env: client.env, timeoutMs: 120_000 });

describe('adopt --scope-from-use', () => {
  it('Gemini CLI sends only the tools this project used (includeTools on the added entry); --undo gives settings.json back byte for byte', async () => {
    const { client, settings } = await geminiWithServers();
    const store = join(client.tmp, 'usage.json');
    await seedStore(store, client.project);
    const before = readFileSync(settings);
    const direct = (await client.toolLists()).flatMap((s) => s.tools ?? []).sort();
    expect(direct).toEqual(expect.arrayContaining(['create_entities', 'list_directory', 'read_graph', 'search_nodes']));

    const adopt = await smart(client, ['adopt', 'gemini', '--scope-from-use', '--store', store]);
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.stdout).toContain('  list_directory, read_graph\n');
    expect(adopt.stdout).toContain('used here but on servers not adopted (not in the filter): git.status');
    const lines = adopt.stdout.split('\n');
    const apply = lines[lines.findIndex((l) => l.includes('One command, which keeps a copy')) + 1]!.trim();
    const undo = lines.find((l) => l.startsWith('To go back after --apply: '))!.slice(26);
    expect(apply).toContain('--scope-from-use');
    // Planning writes nothing in the client's file.
    expect(readFileSync(settings).equals(before)).toBe(true);

    const applied = await sh(client, apply);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const entry = (JSON.parse(readFileSync(settings, 'utf8')) as { mcpServers: Record<string, { args: string[] }> })
      .mcpServers[SWITCH_ENTRY]!;
    expect(entry).toMatchObject({ includeTools: ['list_directory', 'read_graph'] });
    expect(entry.args.slice(-2)).toEqual(['--mode', 'tools']);

    // What Gemini sends the model: this project's two tools, from mcp-smart only.
    const after = await client.toolLists();
    const sent = after.filter((s) => (s.tools ?? []).length > 0);
    expect(sent.map((s) => s.server)).toEqual([SWITCH_ENTRY]);
    expect(sent.flatMap((s) => s.tools ?? []).sort()).toEqual(['list_directory', 'read_graph']);
    console.info(
      `adopt --scope-from-use: Gemini sent ${direct.length} tools directly, ${sent[0]!.tools!.length} after`,
    );

    const back = await sh(client, undo);
    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect(Buffer.compare(readFileSync(settings), before)).toBe(0);
  }, 600_000);

  it('Codex lists only the tools this project used (enabled_tools on the added table); --undo gives config.toml back byte for byte', async () => {
    const { client, config } = await codexWithServers();
    const store = join(client.tmp, 'usage.json');
    await seedStore(store, client.project);
    const before = readFileSync(config);
    const direct = (await client.toolLists()).flatMap((s) => s.tools ?? []).sort();
    expect(direct).toEqual(expect.arrayContaining(['create_entities', 'list_directory', 'read_graph', 'search_nodes']));
    const undo = await adoptAndApply(client, 'codex', store);
    expect(readFileSync(config, 'utf8')).toContain('enabled_tools = ["list_directory", "read_graph"]');
    const after = await client.toolLists();
    const listedTools = after.filter((s) => (s.tools ?? []).length > 0);
    expect(listedTools.map((s) => s.server)).toEqual([SWITCH_ENTRY]);
    expect(listedTools.flatMap((s) => s.tools ?? []).sort()).toEqual(['list_directory', 'read_graph']);
    console.info(`adopt --scope-from-use: Codex listed ${direct.length} tools directly, 2 after`);
    const back = await sh(client, undo);
    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect(Buffer.compare(readFileSync(config), before)).toBe(0);
  }, 600_000);

  it('refuses a client without a tool filter of its own, and a project without scope: exit 2, nothing written', async () => {
    const { client, settings } = await geminiWithServers();
    const before = readFileSync(settings);
    const claude = await smart(client, ['adopt', 'claude-code', '--scope-from-use']);
    expect(claude.code).toBe(2);
    expect(claude.stderr).toContain(
      'Claude Code has none (only Gemini CLI (includeTools) and Codex (enabled_tools) do)',
    );

    const store = join(client.tmp, 'usage.json');
    await seedStore(store, `${client.project}-elsewhere`);
    const none = await smart(client, ['--json', 'adopt', 'gemini', '--scope-from-use', '--store', store]);
    expect(none.code).toBe(2);
    expect((JSON.parse(none.stdout) as { error: { code: string } }).error.code).toBe('ADOPT_NO_SCOPE');
    expect(existsSync(join(client.project, 'mcp-smart.config.json'))).toBe(false);
    expect(readFileSync(settings).equals(before)).toBe(true);
  }, 120_000);
});
