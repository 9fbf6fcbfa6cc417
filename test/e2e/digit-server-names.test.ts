// Servers named with a leading digit (`1srv`, `2fa-tool`): adopt and init named their secrets' variables from the
// server upper-cased, `1SRV_PASSWORD`, which no shell can set, no `${…}` reference can name and GitHub refuses as a
// secret; the written config handed the server the text "${1SRV_PASSWORD}". Now the name starts MCP_, and the
// written files, run as the client or the CI runner would with the variable set, give the server its secret.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { argvServer } from '../helpers/argv-server.js';
import { REPO } from '../helpers/paths.js';
import { sandboxEnv, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const VALID = /^[A-Z_][A-Z0-9_]*$/;
const SECRET = 'hunter2-digit';

let dir: string;
let project: string;
let home: string;
const mcpSmart = (args: string[], env: Record<string, string> = {}) =>
  spawnCli(args, { cwd: project, env: sandboxEnv(dir, { HOME: home, USERPROFILE: home, ...env }), timeoutMs: 60_000 });

beforeEach(() => {
  if (!existsSync(join(REPO, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  dir = tempDir('mcp-smart-digit-');
  project = join(dir, 'project');
  home = join(dir, 'home');
  mkdirSync(project);
  mkdirSync(home);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a server whose name starts with a digit', () => {
  it('init --github: the workflow passes a valid secret name, and its check step starts 1srv with the secret', async () => {
    const argvFile = join(dir, 'argv.json');
    const { line, args } = argvServer(argvFile, ['--password', SECRET]);
    const init = await mcpSmart(['--no-cache', '--stdio', line, '--name', '1srv', 'init', '--yes', '--github']);
    expect(init.code, init.stderr).toBe(0);
    const wf = readFileSync(join(project, '.github', 'workflows', 'mcp-smart.yml'), 'utf8');
    const steps = (
      parse(wf) as { jobs: { 'tool-context': { steps: { run?: string; env?: Record<string, string> }[] } } }
    ).jobs['tool-context'].steps;
    const step = steps.at(-1)!;
    const [variable, value] = Object.entries(step.env ?? {})[0] ?? [];
    expect(variable).toMatch(VALID);
    expect(variable).not.toMatch(/^GITHUB_/);
    expect(value).toBe(`\${{ secrets.${variable} }}`);
    const config = readFileSync(join(project, 'mcp-smart.config.json'), 'utf8');
    expect(config).toContain(`"\${${variable}}"`);
    expect(config + wf).not.toContain(SECRET);

    // The runner: the repository secret under that name, then the step's run line (after `npx --yes -- mcp-smart@…`).
    await rm(argvFile, { force: true });
    const run = step.run!.split(' ').slice(4);
    const check = await mcpSmart(['--no-cache', ...run], { [variable!]: SECRET });
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(readFileSync(argvFile, 'utf8'))).toEqual(args);
  }, 90_000);

  it('adopt cursor --apply: the client starts smart as written, and 2fa-tool gets its secret', async () => {
    const argvFile = join(dir, 'argv.json');
    const { args } = argvServer(argvFile, ['--api-key', SECRET]);
    mkdirSync(join(project, '.cursor'));
    const servers = {
      '2fa-tool': { command: process.execPath, args: [join(REPO, 'fixtures/servers/catalog-server.mjs'), ...args] },
    };
    writeFileSync(join(project, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: servers }));
    const adopt = await mcpSmart(['--json', 'adopt', 'cursor', '--apply']);
    expect(adopt.code, adopt.stderr).toBe(0);
    const { variables } = JSON.parse(adopt.stdout) as { variables: { variable: string }[] };
    expect(variables.map((v) => v.variable)).toEqual(['MCP_2FA_TOOL_API_KEY']);
    for (const v of variables) expect(v.variable).toMatch(VALID);
    expect(readFileSync(join(project, 'mcp-smart.config.json'), 'utf8')).not.toContain(SECRET);

    // Cursor's side: the entry adopt switched it to, started with its command, arguments and env as written.
    const cursor = JSON.parse(readFileSync(join(project, '.cursor', 'mcp.json'), 'utf8')) as {
      mcpServers: Record<string, { command: string; args?: string[]; env?: Record<string, string> }>;
    };
    const smart = Object.values(cursor.mcpServers)[0]!;
    expect(Object.keys(cursor.mcpServers)).toEqual(['smart']);
    await rm(argvFile, { force: true });
    const transport = new StdioClientTransport({
      command: smart.command,
      args: smart.args ?? [],
      cwd: project,
      env: { ...(sandboxEnv(dir, { HOME: home, USERPROFILE: home }) as Record<string, string>), ...smart.env },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cursor-stand-in', version: '1' });
    await client.connect(transport);
    try {
      // serve starts the server on its first call (meta mode): a call through it, as the model's would be.
      const call = await client.callTool({
        name: 'call_tool',
        arguments: { name: '2fa-tool.echo', arguments: { message: 'hi' } },
      });
      expect(call.isError, JSON.stringify(call)).not.toBe(true);
    } finally {
      await client.close();
    }
    expect(JSON.parse(readFileSync(argvFile, 'utf8'))).toEqual(args);
  }, 90_000);
});
