// adopt in the real Gemini CLI when its settings carry server lists (offline, temporary HOME, trusted folder).
// Gemini reads each settings file's `mcp.allowed` / `mcp.excluded`, not the merged value: a server in any excluded
// list is blocked, and one missing from an allow list is blocked. `adopt gemini --apply` turned the adopted server
// off but left the added `smart` entry out of the user's allow list, so Gemini blocked it too and every adopted tool
// was gone; and mcp-smart took a project's own excluded list for the only one, so it adopted (and serve would
// start) a server the user had excluded. The user file here is written by hand: comments, tabs, CRLF, a
// non-ASCII server name; Gemini must still load it after the switch, and --undo gives it back byte for byte.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture, requireBuild } from '../helpers/paths.js';
import { RealClient, runGroup } from '../helpers/real-clients.js';

beforeAll(requireBuild);

const SERVER = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');
const entry = `{ "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(SERVER)}, ${JSON.stringify(TINY)}] }`;

async function cli(client: RealClient, args: string[]): Promise<{ code: number | null; stdout: string }> {
  const r = await runGroup(process.execPath, [BIN, ...args], {
    cwd: client.project,
    env: { ...client.env, MCP_SMART_TRUST_PROJECT: '1' },
    timeoutMs: 60_000,
  });
  return { code: r.code, stdout: r.stdout };
}

/** Server name → whether Gemini CLI connects to it (`gemini mcp list`). */
async function geminiSees(client: RealClient): Promise<Record<string, string>> {
  return Object.fromEntries((await client.list()).map((s) => [s.server, s.status]));
}

/** Server name → whether mcp-smart says Gemini CLI loads it. */
async function smartSees(client: RealClient): Promise<Record<string, boolean>> {
  const r = await cli(client, ['--client', 'gemini', 'servers', '--json']);
  const doc = JSON.parse(r.stdout) as { servers: { name: string; enabled: boolean }[] };
  return Object.fromEntries(doc.servers.map((s) => [s.name, s.enabled]));
}

describe('adopt gemini with mcp.allowed / mcp.excluded in its settings', () => {
  it('allow lists in the user and project settings: the switch lets "smart" through each, Gemini connects to it; --undo restores both files', async () => {
    const client = new RealClient('gemini');
    client.trustProject();
    const user = join(client.home, '.gemini', 'settings.json');
    const userText = [
      '// my Gemini settings, by hand',
      '{',
      '\t"privacy": { "usageStatisticsEnabled": false }, // no stats',
      '\t"security": { "auth": { "selectedType": "gemini-api-key" } },',
      '\t/* only these */',
      '\t"mcp": { "allowed": ["mémoire", "keep"] },',
      '\t"mcpServers": {',
      `\t\t"mémoire": ${entry}, // adopted`,
      `\t\t"keep": ${entry}`,
      '\t}',
      '}',
      '',
    ].join('\r\n');
    writeFileSync(user, userText);
    const project = join(client.project, '.gemini', 'settings.json');
    const projectText = '{\n  "mcp": {\n    "allowed": ["mémoire", "keep"]\n  }\n}\n';
    mkdirSync(join(client.project, '.gemini'));
    writeFileSync(project, projectText);
    expect(await geminiSees(client)).toEqual({ mémoire: 'Connected', keep: 'Connected' });

    const apply = await cli(client, ['-s', 'mémoire', 'adopt', 'gemini', '--apply', '--json']);
    expect(apply.code).toBe(0);
    expect(await geminiSees(client)).toEqual({ mémoire: 'Blocked', keep: 'Connected', smart: 'Connected' });
    expect(await smartSees(client)).toEqual({ mémoire: false, keep: true, smart: true });
    // The user's other content is still there, as written.
    const switched = readFileSync(user, 'utf8');
    for (const kept of [
      '// my Gemini settings, by hand',
      '// no stats',
      '/* only these */',
      '// adopted',
      `"keep": ${entry}`,
    ])
      expect(switched).toContain(kept);
    expect(switched).not.toMatch(/[^\r]\n/);

    const undo = await cli(client, ['adopt', 'gemini', '--undo', '--json']);
    expect(undo.code).toBe(0);
    expect(readFileSync(user, 'utf8')).toBe(userText);
    expect(readFileSync(project, 'utf8')).toBe(projectText);
    expect(await geminiSees(client)).toEqual({ mémoire: 'Connected', keep: 'Connected' });
  }, 180_000);

  it('a server excluded in the user settings stays out although the project settings have an excluded list of their own', async () => {
    const client = new RealClient('gemini');
    client.trustProject();
    writeFileSync(
      join(client.home, '.gemini', 'settings.json'),
      `{ "security": { "auth": { "selectedType": "gemini-api-key" } }, "mcp": { "excluded": ["off"] }, "mcpServers": { "mem": ${entry}, "off": ${entry} } }`,
    );
    mkdirSync(join(client.project, '.gemini'));
    writeFileSync(join(client.project, '.gemini', 'settings.json'), '{ "mcp": { "excluded": ["unrelated"] } }');
    expect(await geminiSees(client)).toEqual({ mem: 'Connected', off: 'Blocked' });
    expect(await smartSees(client)).toEqual({ mem: true, off: false });
    const dry = await cli(client, ['adopt', 'gemini', '--dry-run', '--json']);
    const doc = JSON.parse(dry.stdout) as { servers: { name: string }[] };
    expect(doc.servers.map((s) => s.name)).toEqual(['mem']);
  }, 180_000);
});
