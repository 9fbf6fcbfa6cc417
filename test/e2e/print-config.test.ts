// The GUI clients' entries from `serve --print-config`, started the way those clients start a stdio server
// (command + args, no shell) from another folder than the one they were printed in: each starts this mcp-smart,
// reads the config named by a relative -c (carried as an absolute path), and serves that server's tools.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoServerDefinitions } from '../../src/core/config/demo.js';
import { requireBuild } from '../helpers/paths.js';
import { sandboxEnv, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(requireBuild);

async function toolNames(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const client = new Client({ name: 'print-config-test', version: '0' });
  const transport = new StdioClientTransport({
    command,
    args,
    cwd,
    env: env as Record<string, string>,
    stderr: 'ignore',
  });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await client.close();
  }
}

describe('serve --print-config entries start mcp-smart from any folder', () => {
  it('every GUI client entry starts serve with the -c file it was printed with', async () => {
    const dir = tempDir('mcp-smart-print-e2e-');
    const printedIn = join(dir, 'project');
    const startedIn = join(dir, 'elsewhere');
    for (const d of [printedIn, startedIn, join(dir, 'home')]) mkdirSync(d);
    const memory = (await demoServerDefinitions({ nodePath: process.execPath, scratchDir: join(dir, 'scratch') })).find(
      (d) => d.name === 'memory',
    )!;
    writeFileSync(
      join(printedIn, 'servers.json'),
      JSON.stringify({ mcpServers: { mem: { command: memory.command, args: memory.args, env: memory.env } } }),
    );
    const env = sandboxEnv(join(dir, 'home'), { TMPDIR: dir });
    const direct = await toolNames(memory.command!, memory.args ?? [], startedIn, { ...env, ...memory.env });
    expect(direct.length).toBeGreaterThan(5);

    for (const client of ['claude-desktop', 'cursor', 'vscode', 'windsurf', 'cline', 'roo']) {
      const printed = await spawnCli(['-c', 'servers.json', 'serve', '--print-config', client], {
        cwd: printedIn,
        env,
        timeoutMs: 60_000,
      });
      expect(printed.code, printed.stderr).toBe(0);
      const doc = JSON.parse(printed.stdout.slice(printed.stdout.indexOf('\n{') + 1)) as Record<
        string,
        Record<string, { command: string; args: string[] }>
      >;
      const entry = (doc.mcpServers ?? doc.servers)!['mcp-smart']!;
      // Started elsewhere, the server list comes from the carried absolute -c path, not from the folder.
      expect(await toolNames(entry.command, entry.args, startedIn, env), client).toEqual(direct);
    }
  }, 300_000);
});
