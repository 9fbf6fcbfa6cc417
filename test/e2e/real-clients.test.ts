// The real client CLIs, offline, each with its own temporary HOME (test/helpers/real-clients.ts): Claude Code,
// Gemini CLI and Codex are given the demo servers their own way and report them; then the switch that
// `mcp-smart --demo serve --print-config <client>` prints is parsed out of its output and run, the client reports
// mcp-smart connected (and, where it reports tools, the tools it saw directly), and the printed way back restores
// the client's own view.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoServerDefinitions } from '../../src/core/config/demo.js';
import type { ServerDefinition } from '../../src/types.js';
import { requireBuild } from '../helpers/paths.js';
import { RealClient, type ClientKind, type ClientRun, type ClientServerStatus } from '../helpers/real-clients.js';
import { INSTALL_ARGS, npmEnv, packSourceTree, runProgram } from '../../scripts/pack.mjs';

const PACK_TIMEOUT_MS = 420_000;
import { spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const TIMEOUT_MS = 600_000;
const PRINT_NAME: Record<ClientKind, string> = { claude: 'claude-code', gemini: 'gemini-cli', codex: 'codex' };

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

for (const kind of ['claude', 'gemini', 'codex'] as const) {
  describe(`${kind} (the real CLI, offline, temporary HOME)`, () => {
    it(
      'connects the demo servers, then mcp-smart through the printed switch; the printed way back restores its view',
      async () => {
        const client = new RealClient(kind);
        if (kind === 'gemini') client.trustProject();
        // The folder --demo uses (os.tmpdir()/mcp-smart-demo), inside this client's TMPDIR.
        const defs = await demoServerDefinitions({
          nodePath: process.execPath,
          scratchDir: join(client.tmp, 'mcp-smart-demo'),
        });
        for (const def of defs) expectOk(await client.run(addArgs(kind, def)), `${kind} mcp add ${def.name}`);

        const direct = byName(await client.list());
        expect(direct.map((s) => [s.server, s.connected])).toEqual(defs.map((d) => [d.name, true]).sort());
        const directTools = await client.toolLists();

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

        const switched = byName(await client.list());
        expect(switched.find((s) => s.server === 'mcp-smart')).toMatchObject({ connected: true });
        // The demo servers the client starts itself are untouched by the switch.
        expect(switched.filter((s) => s.server !== 'mcp-smart')).toEqual(direct);

        {
          const viaServe = (await client.toolLists()).find((s) => s.server === 'mcp-smart');
          expect(viaServe, JSON.stringify(viaServe)).toMatchObject({ connected: true });
          const seenDirectly = directTools.flatMap((s) => s.tools ?? []).sort();
          const served = [...(viaServe?.tools ?? [])].sort();
          const missing = seenDirectly.filter((t) => !served.includes(t));
          const gated = await capabilityGatedTools(defs.find((d) => d.name === 'everything')!);
          console.info(
            `${kind}: ${seenDirectly.length} tools from the demo servers directly (${directTools
              .map((s) => `${s.server} ${s.tools?.length}`)
              .join(', ')}), ${served.length} through mcp-smart serve; missing: ${missing.join(', ') || 'none'}; ` +
              `server-everything's capability-gated tools: ${gated.join(', ')}`,
          );
          // Every tool serve lists is one the client saw directly, and serve loses none but the tools
          // server-everything registers only for a client declaring roots/sampling/elicitation (issue 26 item 5).
          expect(served.filter((t) => !seenDirectly.includes(t))).toEqual([]);
          expect(missing.filter((t) => !gated.includes(t))).toEqual([]);
          expect(served.length).toBeGreaterThanOrEqual(seenDirectly.length - gated.length);
        }

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
      const dir = tempDir('mcp-smart-packed-');
      const packed = await packSourceTree(dir);
      const prefix = join(dir, 'prefix');
      const install = await runProgram('npm', ['install', '--prefix', prefix, ...INSTALL_ARGS, packed.tarball], {
        cwd: dir,
        env: npmEnv(),
      });
      expect(install.code, install.stderr).toBe(0);

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
