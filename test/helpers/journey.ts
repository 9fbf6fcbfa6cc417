// The adopt journey of issue 36, shared by test/e2e/journey-*.test.ts and bench/journey.mjs's figures: a real client
// (test/helpers/real-clients.ts) given the four demo servers its own way (the filesystem server with write_file
// hidden where the client can hide a tool; the memory server with a literal MEMORY_FILE_PATH), `adopt` run as a
// user runs it, the printed switch and way back run in a shell exactly as printed, and the tools and tokens the
// client sends to the model counted before and after.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { beforeAll, expect } from 'vitest';
import { join } from 'node:path';
import { demoServerDefinitions } from '../../src/core/config/demo.js';
import { loadTokenizer } from '../../src/core/tokens/index.js';
import type { ServerDefinition } from '../../src/core/types.js';
import { runGroup, type ClientServerStatus, type RealClient } from './real-clients.js';
import { installedPackage } from './installed-package.js';
import { BIN } from './paths.js';
import { scriptedModel, systemText, type ModelRequest } from './scripted-model.js';

// Every journey file that imports these helpers packs and installs mcp-smart (once per run, shared) before its tests,
// so the pack's minutes are not taken from the first journey's own timeout.
beforeAll(async () => {
  await installedPackage();
}, 900_000);

export const ADOPT_NAME = { claude: 'claude-code', gemini: 'gemini', codex: 'codex' } as const;

/** The four demo servers, their scratch folder inside the client's TMPDIR (memory's file there too). */
export async function journeyServers(client: RealClient): Promise<ServerDefinition[]> {
  return demoServerDefinitions({ nodePath: process.execPath, scratchDir: join(client.tmp, 'mcp-smart-demo') });
}

/** Adds each server with the client's own add command; hides filesystem.write_file the client's own way. */
export async function configureClient(client: RealClient, defs: ServerDefinition[]): Promise<void> {
  for (const def of defs) {
    const env = Object.entries(def.env ?? {});
    const words = [def.command!, ...(def.args ?? [])];
    const args =
      client.kind === 'claude'
        ? ['mcp', 'add', def.name, ...env.flatMap(([k, v]) => ['-e', `${k}=${v}`]), '--', ...words]
        : client.kind === 'gemini'
          ? [
              'mcp',
              'add',
              ...(def.name === 'filesystem' ? ['--exclude-tools', 'write_file'] : []),
              '--scope',
              'user',
              def.name,
              words[0]!,
              ...env.flatMap(([k, v]) => ['-e', `${k}=${v}`]),
              '--',
              ...words.slice(1),
            ]
          : ['mcp', 'add', def.name, ...env.flatMap(([k, v]) => ['--env', `${k}=${v}`]), '--', ...words];
    const run = await client.run(args);
    if (run.code !== 0) throw new Error(`${client.kind} ${args.join(' ')}: ${run.stdout}\n${run.stderr}`);
  }
  if (client.kind === 'codex') {
    const file = join(client.home, '.codex', 'config.toml');
    const header = '[mcp_servers.filesystem]\n';
    writeFileSync(file, readFileSync(file, 'utf8').replace(header, `${header}disabled_tools = ["write_file"]\n`));
  }
}

/** The client's own files the journey compares byte for byte. */
export function clientFiles(client: RealClient): string[] {
  if (client.kind === 'claude') return [join(client.home, '.claude.json')];
  if (client.kind === 'gemini') return [join(client.home, '.gemini', 'settings.json')];
  return [join(client.home, '.codex', 'config.toml')];
}

/**
 * Runs mcp-smart as a user gets it: the `mcp-smart` bin of this tree's packed tarball installed into a temporary prefix
 * (test/helpers/installed-package.ts, packed once per test run), in the client's project with the client's environment.
 * The switch adopt prints and writes then starts that installed copy too (node and its bin/mcp-smart.js by path).
 */
export async function mcpSmart(
  client: RealClient,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { bin } = await installedPackage();
  return runGroup(bin, args, { cwd: client.project, env: client.env, timeoutMs: 120_000 });
}

/** Runs a printed command line in a POSIX shell, as pasted. */
export async function inShell(
  client: RealClient,
  line: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runGroup('/bin/sh', ['-c', line], { cwd: client.project, env: client.env, timeoutMs: 120_000 });
}

/**
 * What mcp-smart has cached in the client's HOME (~/.cache/mcp-smart) beside V8's code cache of its own start path
 * (compile/: any command marks or writes it, src/process/code-cache.ts): no tool list, count or index — a cold start.
 */
export function cachedBesideCode(client: RealClient): string[] {
  const dir = join(client.home, '.cache', 'mcp-smart');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name !== 'compile') : [];
}

/** The switch and the way back as adopt printed them (the line under "One command…", the "To go back after --apply" line). */
export function printedLines(stdout: string): { apply: string; undo: string } {
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => l.includes('One command, which keeps a copy of each file it changes:'));
  const apply = lines[at + 1]?.trim();
  const undo = lines
    .find((l) => l.startsWith('To go back after --apply: '))
    ?.slice('To go back after --apply: '.length);
  if (at < 0 || !apply || !undo) throw new Error(`adopt printed no switch:\n${stdout}`);
  return { apply, undo };
}

/** Tokens of what the client sends the model for each tool (its definitions as sent), o200k_base. */
export async function toolTokens(list: ClientServerStatus[]): Promise<number> {
  const count = await loadTokenizer('o200k_base');
  return list.flatMap((s) => s.definitions ?? []).reduce<number>((sum, d) => sum + count(JSON.stringify(d)), 0);
}

/** Every tool id the client lists, over connected servers: `<server>.<tool>`; and the bare names, for duplicates. */
export function listed(list: ClientServerStatus[]): { ids: string[]; names: string[] } {
  const on = list.filter((s) => s.connected);
  return {
    ids: on.flatMap((s) => (s.tools ?? []).map((t) => `${s.server}.${t}`)).sort(),
    names: on.flatMap((s) => s.tools ?? []).sort(),
  };
}

/** Names that appear more than once (a tool the model would get twice). */
export const duplicates = (names: string[]): string[] => [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];

/**
 * Starts the mcp-smart entry exactly as the switched client config holds it (command, args, env) through the MCP SDK
 * and calls the memory server's create_entities through it; returns the served tool name used.
 */
export async function rememberThroughEntry(
  entry: { command: string; args: string[]; env?: Record<string, string> },
  baseEnv: NodeJS.ProcessEnv,
  entity: string,
): Promise<string> {
  const env = { ...(baseEnv as Record<string, string>), ...(entry.env ?? {}) };
  const client = new Client({ name: 'journey', version: '0' });
  await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, env, stderr: 'ignore' }));
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const args = { entities: [{ name: entity, entityType: 'test', observations: ['journey'] }] };
    let name = tools.find((t) => /create_entities$/.test(t));
    let result;
    if (name) result = await client.callTool({ name, arguments: args });
    else if (tools.includes('find_tool') && tools.includes('call_tool')) {
      // Behind the meta-tools (serve --mode meta): found with find_tool, called with call_tool, as a model would.
      const intent = 'create entities in the knowledge graph';
      const found = await client.callTool({ name: 'find_tool', arguments: { intent } });
      name = /\bmemory\.create_entities\b/.exec(JSON.stringify(found.content))?.[0];
      if (!name) throw new Error(`find_tool "${intent}" did not find memory.create_entities: ${JSON.stringify(found)}`);
      result = await client.callTool({ name: 'call_tool', arguments: { name, arguments: args } });
    } else throw new Error(`no create_entities among ${tools.join(', ')}`);
    if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return name;
  } finally {
    await client.close();
  }
}

/**
 * The MCP tools Claude Code sends the model: `claude -p` against the local Messages API stand-in
 * (test/helpers/scripted-model.ts), which answers "done". Claude Code defers MCP tools behind its own ToolSearch:
 * a deferred tool reaches the model as its name (`mcp__<server>__<tool>` in the system text or a `defer_loading`
 * entry), a loaded one as its whole definition. Per server: each tool, and what the model receives for it.
 */
export async function claudeModelTools(client: RealClient, expected: number): Promise<ClientServerStatus[]> {
  // `claude -p` sends its first request after a short wait for the servers; one still starting on a busy machine is
  // left out of that request. Ask again, as a user would, until every expected server is in.
  let got: ClientServerStatus[] = [];
  for (let attempt = 0; attempt < 4 && got.length < expected; attempt++) got = await claudeOnce(client);
  return got;
}

async function claudeOnce(client: RealClient): Promise<ClientServerStatus[]> {
  const model = await scriptedModel(() => [{ type: 'text', text: 'done' }]);
  try {
    const run = await client.run(['-p', 'say hi', '--output-format', 'stream-json', '--verbose'], 240_000, {
      ANTHROPIC_API_KEY: 'sk-ant-placeholder-offline',
      ANTHROPIC_BASE_URL: model.baseUrl,
      MCP_TIMEOUT: '60000',
    });
    if (run.code !== 0) throw new Error(`claude -p exited ${run.code}: ${run.stderr.slice(-2000)}`);
  } finally {
    await model.close();
  }
  const mention = /mcp__([A-Za-z0-9_-]+?)__([A-Za-z0-9_-]+)/g;
  const received = (r: ModelRequest): Map<string, unknown> => {
    const out = new Map<string, unknown>();
    for (const m of systemText(r).matchAll(mention)) out.set(m[0], m[0]);
    for (const t of r.tools ?? [])
      if (t.name.startsWith('mcp__')) out.set(t.name, t.defer_loading === true ? t.name : t);
    return out;
  };
  const best = [...model.requests].map(received).sort((a, b) => b.size - a.size)[0] ?? new Map<string, unknown>();
  const byServer = new Map<string, { tools: string[]; definitions: unknown[] }>();
  for (const [name, def] of best) {
    const [, server = '', ...rest] = name.split('__');
    if (!byServer.has(server)) byServer.set(server, { tools: [], definitions: [] });
    byServer.get(server)!.tools.push(rest.join('__'));
    byServer.get(server)!.definitions.push(def);
  }
  return [...byServer].map(([server, v]) => ({
    server,
    connected: true,
    status: 'sent to the model',
    tools: v.tools.sort(),
    definitions: v.definitions,
  }));
}

/**
 * The journey up to the switch, the same for every client: the demo servers configured the client's way, what the
 * client lists directly (each server connected, the hidden tool left out), `adopt` as a user runs it (a literal stays a
 * literal), and the printed `--apply` run in a shell. Returns what the rest of a journey compares with.
 */
export async function switchClient(client: RealClient): Promise<{
  memoryFile: string;
  files: string[];
  before: Buffer[];
  directTools: { ids: string[]; names: string[] };
  directTokens: number;
  printed: { apply: string; undo: string };
}> {
  const defs = await journeyServers(client);
  await configureClient(client, defs);
  const memoryFile = defs.find((d) => d.name === 'memory')!.env!.MEMORY_FILE_PATH!;
  const files = clientFiles(client);
  const before = files.map((f) => readFileSync(f));
  const direct = await client.toolLists();
  const directTools = listed(direct);
  expect(
    direct
      .filter((s) => s.connected)
      .map((s) => s.server)
      .sort(),
  ).toEqual(defs.map((d) => d.name).sort());
  expect(directTools.names).not.toContain('write_file');
  const directTokens = await toolTokens(direct);
  const adopt = await mcpSmart(client, ['adopt', ADOPT_NAME[client.kind]]);
  expect(adopt.code, adopt.stderr).toBe(0);
  // A value stays a value: the memory server's file path is copied as written.
  expect(readFileSync(join(client.project, 'mcp-smart.config.json'), 'utf8')).toContain(memoryFile);
  const printed = printedLines(adopt.stdout);
  const applied = await inShell(client, printed.apply);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  // The client now starts the installed package, not this tree's bin/.
  const installed = realpathSync(join((await installedPackage()).prefix, 'node_modules', 'mcp-smart', 'bin'));
  const switched = files.map((f) => readFileSync(f, 'utf8')).join('\n');
  expect(switched).toContain(join(installed, 'mcp-smart.js'));
  expect(switched).not.toContain(BIN);
  return { memoryFile, files, before, directTools, directTokens, printed };
}
