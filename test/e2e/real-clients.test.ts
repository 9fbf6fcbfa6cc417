// The real client CLIs, offline, each with its own temporary HOME (test/helpers/real-clients.ts): Claude Code,
// Gemini CLI and Codex are given the demo servers their own way (Gemini and Codex with a tool the user hid) and
// report them and their tools; then `mcp-smart adopt <client> --json` is run in the project, the switch it prints
// (the client's own `mcp add`, as an argv array) is run without a shell, and the client reports mcp-smart connected
// with exactly the tools it saw directly (capability-gated ones included, the hidden one left out); the printed way
// back restores the client's own view, tool counts included. The `--demo serve --print-config` switch is run too.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoServerDefinitions } from '../../src/core/config/demo.js';
import type { ServerDefinition } from '../../src/core/types.js';
import { fixture, requireBuild } from '../helpers/paths.js';
import { RealClient, type ClientKind, type ClientRun, type ClientServerStatus } from '../helpers/real-clients.js';
import { runProgram } from '../../scripts/pack.mjs';
import { shellQuote } from '../../src/app/services/print-config.js';
import { SWITCH_ENTRY } from '../../src/core/adopt/switch-plan.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { installedPackage } from '../helpers/installed-package.js';

const PACK_TIMEOUT_MS = 420_000;
const TIMEOUT_MS = 600_000;
const PRINT_NAME: Record<ClientKind, string> = { claude: 'claude-code', gemini: 'gemini-cli', codex: 'codex' };
const ADOPT_NAME: Record<ClientKind, string> = { claude: 'claude-code', gemini: 'gemini', codex: 'codex' };

beforeAll(requireBuild);

/** The client's own add command for one demo server (its documented syntax, from each CLI's `mcp add --help`). */
function addArgs(kind: ClientKind, def: ServerDefinition): string[] {
  const env = Object.entries(def.env ?? {});
  const command = def.command!;
  const args = def.args ?? [];
  if (kind === 'claude')
    return ['mcp', 'add', def.name, ...env.flatMap(([k, v]) => ['-e', `${k}=${v}`]), '--', command, ...args];
  if (kind === 'gemini')
    return [
      'mcp',
      'add',
      '--scope',
      'user',
      def.name,
      command,
      ...env.flatMap(([k, v]) => ['-e', `${k}=${v}`]),
      '--',
      ...args,
    ];
  return ['mcp', 'add', def.name, ...env.flatMap(([k, v]) => ['--env', `${k}=${v}`]), '--', command, ...args];
}

function expectOk(run: ClientRun, what: string): void {
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
}

const byName = (list: ClientServerStatus[]): ClientServerStatus[] =>
  [...list].sort((a, b) => a.server.localeCompare(b.server));

/**
 * The tools server-everything registers only for a client that declares roots, sampling or elicitation: its list
 * with those capabilities declared, minus its list without them (both through the SDK, as mcp-smart connects).
 */
async function capabilityGatedTools(def: ServerDefinition): Promise<string[]> {
  const list = async (capabilities: Record<string, unknown>): Promise<string[]> => {
    const client = new Client({ name: 'gate-probe', version: '0' }, { capabilities });
    await client.connect(new StdioClientTransport({ command: def.command!, args: def.args, stderr: 'ignore' }));
    try {
      return (await client.listTools()).tools.map((t) => t.name);
    } finally {
      await client.close();
    }
  };
  const bare = new Set(await list({}));
  const all = await list({ roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } });
  return all.filter((t) => !bare.has(t)).sort();
}

/**
 * A fifth server with a secret in its env, as users have them: it serves one tool named after that value
 * (env_tok_4711) beside two generated ones, so the client's tool list shows whether the value reached it — directly, and through serve,
 * where the adopted file refers to ${NOTES_TOKEN} and the client must pass the variable on to serve.
 */
const NOTES: ServerDefinition = {
  name: 'notes',
  transport: 'stdio',
  command: process.execPath,
  args: [fixture('servers', 'catalog-server.mjs'), '--generate', '2', '--tool-from-env', 'NOTES_TOKEN'],
  env: { NOTES_TOKEN: 'tok-4711' },
  enabled: true,
  source: 'test',
  scope: 'user',
};

/** The tool the user hid in the client (Gemini excludeTools, Codex disabled_tools); Claude Code has no such key. */
const HIDDEN: Partial<Record<ClientKind, { server: string; tool: string }>> = {
  gemini: { server: 'filesystem', tool: 'write_file' },
  codex: { server: 'filesystem', tool: 'write_file' },
};

/** Adds the demo servers the client's own way, and hides HIDDEN[kind] the client's own way. */
async function configureDirectly(client: RealClient, defs: ServerDefinition[]): Promise<void> {
  const hidden = HIDDEN[client.kind];
  for (const def of defs) {
    const args = addArgs(client.kind, def);
    // `gemini mcp add --exclude-tools <tool> --scope …`: its list is ended by the next option (a `--` would be
    // taken into the list, with the server's args after it).
    if (client.kind === 'gemini' && hidden?.server === def.name) args.splice(2, 0, '--exclude-tools', hidden.tool);
    expectOk(await client.run(args), `${client.kind} mcp add ${def.name}`);
  }
  if (client.kind === 'codex' && hidden) {
    // `codex mcp add` has no tool filter: the user writes disabled_tools into the table it wrote.
    const file = join(client.home, '.codex', 'config.toml');
    const header = `[mcp_servers.${hidden.server}]\n`;
    const toml = readFileSync(file, 'utf8');
    expect(toml).toContain(header);
    writeFileSync(file, toml.replace(header, `${header}disabled_tools = [${JSON.stringify(hidden.tool)}]\n`));
  }
}

/** Every tool name the client reported, over all its servers but mcp-smart's (adopt's entry, print-config's), sorted. */
const toolNames = (list: ClientServerStatus[]): string[] =>
  list
    .filter((s) => s.server !== 'mcp-smart' && s.server !== SWITCH_ENTRY)
    .flatMap((s) => s.tools ?? [])
    .sort();

/** Server → how many tools the client reported for it. */
const toolCounts = (list: ClientServerStatus[]): Record<string, number> =>
  Object.fromEntries(byName(list).map((s) => [s.server, s.tools?.length ?? 0]));

interface AdoptJson {
  servers: { name: string; excludeTools?: string[] }[];
  variables: { server: string; key: string; variable: string }[];
  commands?: { switch: string[]; back: string[] };
  envVars?: string[];
  switch: string;
}

/** Runs a command adopt printed as argv (no shell); its first word names this client. */
async function runCommand(client: RealClient, argv: string[], what: string): Promise<void> {
  const [first, ...rest] = argv;
  expect(first, what).toBe(client.kind);
  expectOk(await client.run(rest), what);
}

for (const kind of ['claude', 'gemini', 'codex'] as const) {
  describe(`${kind} (the real CLI, offline, temporary HOME)`, () => {
    it(
      'adopt and its printed switch: mcp-smart connected with the tools the client saw directly (hidden ones left ' +
        'out), and the printed way back restores its view; the print-config switch connects too',
      async () => {
        const client = new RealClient(kind);
        if (kind === 'gemini') client.trustProject();
        // Claude Code's first request lists a server slower than 5 s (MCP_CONNECT_TIMEOUT_MS) as "pending", without
        // its tools: on this shared machine (load average ~20) even a server started directly can take longer.
        if (kind === 'claude') client.env.MCP_CONNECT_TIMEOUT_MS = '60000';
        // The folder --demo uses (os.tmpdir()/mcp-smart-demo), inside this client's TMPDIR.
        const defs = [
          ...(await demoServerDefinitions({
            nodePath: process.execPath,
            scratchDir: join(client.tmp, 'mcp-smart-demo'),
          })),
          NOTES,
        ];
        await configureDirectly(client, defs);

        const direct = byName(await client.list());
        expect(direct.map((s) => [s.server, s.connected])).toEqual(defs.map((d) => [d.name, true]).sort());
        const directTools = await client.toolLists();
        const seenDirectly = toolNames(directTools);
        expect(seenDirectly).toContain('env_tok_4711');
        const hidden = HIDDEN[kind];
        // The client itself hides what the user hid (the premise of "without the hidden tools" below).
        if (hidden) {
          expect(seenDirectly).not.toContain(hidden.tool);
          expect(directTools.find((s) => s.server === hidden.server)?.tools?.length).toBeGreaterThan(0);
        }
        // The tools server-everything registers only for a client declaring roots, sampling or elicitation: the
        // client sees those it declares for, and so must it through serve.
        const gated = await capabilityGatedTools(defs.find((d) => d.name === 'everything')!);

        // adopt, as the user runs it in the project; --json gives the switch and the way back as argv arrays.
        const adopted = await spawnCli(['adopt', ADOPT_NAME[kind], '--json'], {
          cwd: client.project,
          env: client.env,
          timeoutMs: 60_000,
        });
        expect(adopted.code, adopted.stderr).toBe(0);
        const doc = JSON.parse(adopted.stdout) as AdoptJson;
        expect(doc.servers.map((s) => s.name).sort()).toEqual(defs.map((d) => d.name).sort());
        if (hidden) expect(doc.servers.find((s) => s.name === hidden.server)?.excludeTools).toEqual([hidden.tool]);
        // The secret (NOTES_TOKEN) became a variable, the memory server's plain file path stayed a value: the user sets
        // the variable where the client starts.
        for (const v of doc.variables) {
          const value = defs.find((d) => d.name === v.server)?.env?.[v.key.replace(/^env\./, '')];
          expect(value, JSON.stringify(v)).toBeDefined();
          client.env[v.variable] = value;
        }
        expect(doc.commands, adopted.stdout).toBeDefined();
        const switchArgv = doc.commands!.switch;
        if (kind === 'gemini') {
          // Gemini CLI withholds secret-like variables from the servers it starts: the printed line gives each with
          // `-e "NAME=$NAME"`, which the user's shell fills in; here the same words, filled in from the same values.
          expect(doc.envVars).toEqual(['NOTES_TOKEN']);
          const given = doc.envVars!.flatMap((v) => ['-e', `"${v}=$${v}"`]);
          const line = [...switchArgv.slice(0, 3), ...given, ...switchArgv.slice(3).map(shellQuote)].join(' ');
          expect(doc.switch.split('\n')).toContain(line);
          const filled = doc.envVars!.flatMap((v) => ['-e', `${v}=${client.env[v]}`]);
          await runCommand(client, [...switchArgv.slice(0, 3), ...filled, ...switchArgv.slice(3)], 'the switch');
        } else await runCommand(client, switchArgv, 'the switch adopt printed');
        if (kind === 'codex') {
          // Codex passes a server only a few variables of its own (HOME, PATH, …): the switch says to add the printed
          // env_vars line to the mcp-smart entry, which the user does (`codex mcp add` has no flag for it).
          expect(doc.envVars).toEqual(['NOTES_TOKEN']);
          const line = doc.switch.split('\n').find((l) => l.startsWith('env_vars = '));
          expect(line, doc.switch).toBe('env_vars = ["NOTES_TOKEN"]');
          const file = join(client.home, '.codex', 'config.toml');
          const header = `[mcp_servers.${SWITCH_ENTRY}]\n`;
          writeFileSync(file, readFileSync(file, 'utf8').replace(header, `${header}${line}\n`));
        }
        // Claude Code's add command carries the secret too (-e "NOTES_TOKEN=$NOTES_TOKEN" in the printed line).
        if (kind === 'claude') expect(doc.envVars).toEqual(['NOTES_TOKEN']);

        const switched = byName(await client.list());
        expect(switched.find((s) => s.server === SWITCH_ENTRY)).toMatchObject({ connected: true });
        // The client's own entries are untouched (without --apply adopt edits none): it still starts them beside serve.
        expect(switched.filter((s) => s.server !== SWITCH_ENTRY)).toEqual(direct);

        const viaServe = (await client.toolLists()).find((s) => s.server === SWITCH_ENTRY);
        expect(viaServe, JSON.stringify(viaServe)).toMatchObject({ connected: true });
        const served = [...(viaServe?.tools ?? [])].sort();
        console.info(
          `${kind}: ${seenDirectly.length} tools directly (${Object.entries(toolCounts(directTools))
            .map(([s, n]) => `${s} ${n}`)
            .join(', ')}), ${served.length} through mcp-smart serve after adopt and its switch` +
            `${hidden ? `; hidden by the user: ${hidden.server}.${hidden.tool}` : ''}; ` +
            `capability-gated tools seen directly: ${gated.filter((t) => seenDirectly.includes(t)).join(', ')}`,
        );
        // Gemini CLI sends every declaration to the model and has no tool search: adopt switches it to meta mode, the
        // meta-tools only (the journey test calls a tool behind them through Gemini's entry). The others: the same
        // tools, the capability-gated ones included, the hidden one left out.
        if (kind === 'gemini')
          expect(served).toEqual(['call_tool', 'call_tool_read', 'describe_tool', 'find_tool', 'list_tools']);
        else expect(served).toEqual(seenDirectly);
        if (hidden) expect(served).not.toContain(hidden.tool);

        await runCommand(client, doc.commands!.back, 'the way back adopt printed');
        expect(byName(await client.list())).toEqual(direct);
        const restored = await client.toolLists();
        expect(toolCounts(restored)).toEqual(toolCounts(directTools));
        expect(toolNames(restored)).toEqual(seenDirectly);
        console.info(
          `${kind}: after the way back, ${toolNames(restored).length} tools from ${restored.length} servers`,
        );

        // print-config's switch (issue 26 item 1) starts this mcp-smart too, and its way back removes it.
        const printed = await spawnCli(['--demo', 'serve', '--print-config', PRINT_NAME[kind]], {
          cwd: client.project,
          env: client.env,
          timeoutMs: 60_000,
        });
        expect(printed.code).toBe(0);
        const lines = printed.stdout.split('\n');
        const add = lines.find((l) => l.startsWith(`${kind} mcp add `));
        const back = lines[lines.indexOf('# Way back:') + 1];
        expect(add, printed.stdout).toBeDefined();
        expect(back, printed.stdout).toMatch(new RegExp(`^${kind} mcp remove `));
        expectOk(await client.runPrinted(add!), 'the printed switch');
        expect((await client.list()).find((s) => s.server === 'mcp-smart')).toMatchObject({ connected: true });
        expectOk(await client.runPrinted(back!), 'the printed way back');
        expect(byName(await client.list())).toEqual(direct);
      },
      TIMEOUT_MS,
    );
  });
}

describe('claude with mcp-smart installed from the packed tarball', () => {
  it(
    'the installed copy prints a switch that starts itself (not npx of a name nobody published), and Claude Code connects',
    async () => {
      // The run's one pack and install (test/helpers/installed-package.ts).
      const { prefix } = await installedPackage();

      const client = new RealClient('claude');
      const printed = await runProgram(
        join(prefix, 'node_modules', '.bin', 'mcp-smart'),
        ['--demo', 'serve', '--print-config', 'claude-code'],
        {
          cwd: client.project,
          env: client.env,
          timeoutMs: 60_000,
        },
      );
      expect(printed.code, printed.stderr).toBe(0);
      const add = printed.stdout.split('\n').find((l) => l.startsWith('claude mcp add '))!;
      // A tarball install records a file: tarball, not a registry one: started by its own path.
      const installed = join(realpathSync(prefix), 'node_modules', 'mcp-smart', 'bin', 'mcp-smart.js');
      expect(add).toBe(
        `claude mcp add --scope local mcp-smart -- ${process.execPath} ${installed} --demo serve --mode tools`,
      );
      expectOk(await client.runPrinted(add), 'the printed switch');
      expect(await client.list()).toEqual([{ server: 'mcp-smart', connected: true, status: 'Connected' }]);
    },
    PACK_TIMEOUT_MS + 120_000,
  );
});
