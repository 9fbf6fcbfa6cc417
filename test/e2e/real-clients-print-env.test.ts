// serve --print-config for the clients that do not pass their whole environment on to the servers they start (issue
// 26 item 1): a -c config whose server refers to ${NOTES_TOKEN} is switched to serve with the real Codex and Gemini
// CLIs (offline, temporary HOME each; test/helpers/real-clients.ts). The server names one tool after the value it
// got (catalog-server.mjs --tool-from-env), so the client's tool list shows whether the secret reached it through
// serve: without what print-config adds it does not (serve then does not start it: no env_ tool), with the printed
// lines it does (env_tok_4711).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, requireBuild } from '../helpers/paths.js';
import { RealClient, type ClientRun } from '../helpers/real-clients.js';
import { spawnCli } from '../helpers/spawn-cli.js';

const TIMEOUT_MS = 600_000;
const SECRET = 'tok-4711';

beforeAll(requireBuild);

function expectOk(run: ClientRun, what: string): void {
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
}

/** The project's own config for serve: one server whose env refers to ${NOTES_TOKEN}. */
function writeNotesConfig(client: RealClient): string {
  const file = join(client.project, 'notes.config.json');
  const args = [fixture('servers', 'catalog-server.mjs'), '--generate', '2', '--tool-from-env', 'NOTES_TOKEN'];
  const entry = { command: process.execPath, args, env: { NOTES_TOKEN: '${NOTES_TOKEN}' } };
  writeFileSync(file, JSON.stringify({ mcpServers: { notes: entry } }, null, 2));
  return file;
}

/** The env_… tool mcp-smart serves, as the client lists it (after its own prefix, if any). */
async function envToolThroughServe(client: RealClient): Promise<string | undefined> {
  const viaServe = (await client.toolLists()).find((s) => s.server === 'mcp-smart');
  expect(viaServe, JSON.stringify(viaServe)).toMatchObject({ connected: true });
  return viaServe!.tools?.find((t) => /env_[a-z0-9_]+$/.test(t))?.replace(/^.*(env_[a-z0-9_]+)$/, '$1');
}

async function printFor(client: RealClient, name: string): Promise<string[]> {
  const printed = await spawnCli(['-c', 'notes.config.json', 'serve', '--print-config', name], {
    cwd: client.project,
    env: client.env,
    timeoutMs: 60_000,
  });
  expect(printed.code, printed.stderr).toBe(0);
  // Names only: the value is never printed.
  expect(printed.stdout + printed.stderr).not.toContain(SECRET);
  return printed.stdout.split('\n');
}

describe('serve --print-config passes on the variables a -c config refers to (real CLIs, offline)', () => {
  it(
    'Codex: the printed env_vars line is what brings ${NOTES_TOKEN} to the server behind serve',
    async () => {
      const client = new RealClient('codex');
      writeNotesConfig(client);
      // Set where the user runs Codex (and print-config); Codex itself keeps it from the servers it starts.
      client.env.NOTES_TOKEN = SECRET;
      const lines = await printFor(client, 'codex');
      const add = lines.find((l) => l.startsWith('codex mcp add '));
      expect(add, lines.join('\n')).toBeDefined();
      expect(lines.filter((l) => l.startsWith('env_vars = '))).toEqual([
        'env_vars = ["NOTES_TOKEN"]',
        'env_vars = ["NOTES_TOKEN"]',
      ]);
      expectOk(await client.runInShell(add!), 'the printed codex mcp add');
      // The lines the text after the add command says to add by hand (codex mcp add has no flag for them).
      const byHand = lines
        .slice(lines.indexOf(add!) + 1, lines.indexOf('# Way back:'))
        .filter((l) => !l.startsWith('#'));
      expect(byHand).toEqual(['required = true', 'startup_timeout_sec = 30', 'env_vars = ["NOTES_TOKEN"]']);
      const file = join(client.home, '.codex', 'config.toml');
      const header = '[mcp_servers.mcp-smart]\n';
      const toml = readFileSync(file, 'utf8');
      expect(toml).toContain(header);
      const added = (keep: string[]): void =>
        writeFileSync(file, toml.replace(header, `${header}${keep.join('\n')}\n`));
      // Without the env_vars line (what print-config printed before): serve gets no NOTES_TOKEN and does not start the
      // server with an empty one (issue 36.2), so no env_ tool at all (never env_unset).
      added(byHand.filter((l) => !l.startsWith('env_vars')));
      expect(await envToolThroughServe(client)).toBeUndefined();
      // With every line, added to the entry Codex wrote, as the printed text says.
      added(byHand);
      expect(await envToolThroughServe(client)).toBe('env_tok_4711');
      // The snippet for the file by hand says the same as the add command plus the line.
      const snippet = lines.slice(lines.indexOf(header.trim())).join('\n');
      expect(snippet).toContain('env_vars = ["NOTES_TOKEN"]');
    },
    TIMEOUT_MS,
  );

  it(
    'Gemini CLI: the printed add command with -e "NOTES_TOKEN=$NOTES_TOKEN", run in a shell, and the printed JSON entry ' +
      'with "$NOTES_TOKEN" bring it to the server',
    async () => {
      const client = new RealClient('gemini');
      client.trustProject();
      writeNotesConfig(client);
      client.env.NOTES_TOKEN = SECRET;
      const lines = await printFor(client, 'gemini-cli');
      const add = lines.find((l) => l.startsWith('gemini mcp add '));
      expect(add, lines.join('\n')).toContain(' -e "NOTES_TOKEN=$NOTES_TOKEN" ');
      const remove = lines[lines.indexOf('# Way back:') + 1]!;
      // Without -e (what print-config printed before): Gemini withholds the secret-like variable from serve, which
      // then does not start the server with an empty one (issue 36.2): no env_ tool at all (never env_unset).
      expectOk(await client.runInShell(add!.replace(' -e "NOTES_TOKEN=$NOTES_TOKEN"', '')), 'gemini mcp add, no -e');
      expect(await envToolThroughServe(client)).toBeUndefined();
      expectOk(await client.runInShell(remove), 'the printed way back');
      // The printed line, pasted into a shell where the variable is set.
      expectOk(await client.runInShell(add!), 'the printed gemini mcp add');
      expect(await envToolThroughServe(client)).toBe('env_tok_4711');
      expectOk(await client.runInShell(remove), 'the printed way back');
      // By hand: the printed JSON entry, with "$NOTES_TOKEN" (a reference, no value), merged into ~/.gemini/settings.json.
      const json = lines.slice(lines.findIndex((l) => l === '{')).join('\n');
      const snippet = JSON.parse(json) as { mcpServers: Record<string, { env?: Record<string, string> }> };
      expect(snippet.mcpServers['mcp-smart']?.env).toEqual({ NOTES_TOKEN: '$NOTES_TOKEN' });
      const file = join(client.home, '.gemini', 'settings.json');
      const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...settings, mcpServers: snippet.mcpServers }, null, 2));
      expect(await envToolThroughServe(client)).toBe('env_tok_4711');
    },
    TIMEOUT_MS,
  );
});
