// Planted secrets: values in env, headers, URL query and user-info, and a ${VAR} expanded into args. Every
// command, every format, --debug, error paths and every file written (snapshots, baselines, config, caches,
// usage store) are grepped for them. Servers echo them back on stderr and in HTTP error bodies.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { spawnCli, startHttpFixture } from '../helpers/spawn-cli.js';

const SECRETS = {
  env: 'envsecret-PLANT-1111aaaa',
  header: 'hdrsecret-PLANT-2222bbbb',
  query: 'qrysecret-PLANT-3333cccc',
  password: 'pwdsecret-PLANT-4444dddd',
  arg: 'argsecret-PLANT-5555eeee',
};
const project = mkdtempSync(join(tmpdir(), 'mcp-smart-planted-'));
const home = join(project, 'home');
const env = {
  PATH: process.env.PATH,
  HOME: home,
  NO_COLOR: '1',
  MCP_SMART_CACHE_DIR: join(home, 'cache'),
  MCP_SMART_DATA_DIR: join(home, 'data'),
  ARG_SECRET: SECRETS.arg,
};
const children: ChildProcess[] = [];
const outputs: { what: string; text: string }[] = [];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

async function cli(args: string[]): Promise<number | null> {
  const r = await spawnCli(args, { cwd: project, env, timeoutMs: 90_000 });
  outputs.push(
    { what: `${args.join(' ')} (stdout)`, text: r.stdout },
    { what: `${args.join(' ')} (stderr)`, text: r.stderr },
  );
  return r.code;
}

let echoUrl = '';
let credsUrl = '';
beforeAll(async () => {
  mkdirSync(home);
  const base = await startHttpFixture(fixture('servers', 'misbehaving', 'hard-http-errors.mjs'), ['--echo'], children);
  const u = new URL(base);
  u.searchParams.set('api_key', SECRETS.query);
  echoUrl = u.toString();
  // fetch refuses user-info outright: this one is an error path that must not quote it.
  u.username = 'user';
  u.password = SECRETS.password;
  credsUrl = u.toString();
  const server = fixture('servers', 'catalog-server.mjs');
  const tiny = fixture('servers', 'catalogs', 'tiny.json');
  const config = {
    mcpServers: {
      good: {
        command: 'node',
        args: [server, tiny, '--print-env', 'API_KEY', '--token', '${ARG_SECRET}'],
        env: { API_KEY: SECRETS.env },
      },
      crashy: {
        command: 'node',
        args: [fixture('servers', 'misbehaving', 'hard-echo-args.mjs'), '${ARG_SECRET}'],
        env: { ECHO_ENV: SECRETS.env },
      },
      web: { type: 'http', url: echoUrl, headers: { Authorization: `Bearer ${SECRETS.header}` } },
      creds: { type: 'http', url: credsUrl },
    },
  };
  // Approved in Claude Code as after its trust dialog (HOME's ~/.claude.json), so the project's servers load.
  writeFileSync(join(project, '.mcp.json'), JSON.stringify(config, null, 2));
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true, enableAllProjectMcpServers: true } } }),
  );
  writeFileSync(
    join(project, 'intents.jsonl'),
    JSON.stringify({ intent: 'search notes', expected: ['good.search_notes'] }) + '\n',
  );
}, 60_000);

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(project, { recursive: true, force: true });
});

describe('planted secrets never leave the process', () => {
  it('every command, format, --debug and error path, and every file written', async () => {
    const formats = [[], ['--json'], ['--format', 'markdown'], ['--debug'], ['--debug', '--json']];
    for (const f of formats) {
      await cli([...f, 'servers']);
      await cli([...f, 'audit']);
      await cli([...f, 'discover', 'search notes']);
      await cli([...f, 'budget', '--max', '100000']);
      await cli([...f, 'condense', '--level', 'minimal']);
    }
    await cli(['dump', '-o', 'snap.json']);
    await cli(['--debug', 'dump']);
    await cli(['--json', 'dump', '-o', 'snap2.json']);
    await cli(['check', '--update']); // refused: servers failed (an error path)
    await cli(['-s', 'good', 'check', '--update']);
    await cli(['-s', 'good', 'check']);
    await cli(['--debug', '--json', 'check']);
    await cli(['--snapshot', 'snap.json', 'audit', '--json']);
    await cli(['-s', 'good', 'condense', '-o', 'condensed.json']);
    await cli(['--snapshot', 'snap.json', 'replay', 'intents.jsonl', '--learn', '--store', 'usage.json']);
    await cli(['-s', 'good', 'budget', '--max', '100000', '--apply', '-o', 'budget.json']);
    await cli(['--url', credsUrl, '--name', 'adhoc', 'init', '--yes', '--no-baseline', '--force']);
    await cli(['--debug', '--url', credsUrl, 'dump']);
    await cli(['--debug', '--json', '--url', echoUrl, 'dump']);
    await cli(['--timeout', '1', 'audit', '--debug']);

    const files = filesUnder(project).filter((f) => !f.endsWith('.mcp.json'));
    expect(files.some((f) => f.endsWith('snap.json'))).toBe(true);
    expect(files.some((f) => f.endsWith('mcp-smart.lock.json'))).toBe(true);
    expect(files.some((f) => f.endsWith('mcp-smart.config.json'))).toBe(true);
    expect(files.some((f) => f.includes('tool-lists'))).toBe(true);
    expect(files.some((f) => f.endsWith('usage.json'))).toBe(true);
    for (const f of files) outputs.push({ what: f, text: readFileSync(f, 'utf8') });

    // The servers really did send the values back (otherwise the test proves nothing).
    const all = outputs.map((o) => o.text).join('\n');
    expect(all).toContain('authentication failed for token ***');
    expect(all).toContain('invalid token ***');

    const leaks: string[] = [];
    for (const { what, text } of outputs)
      for (const [kind, value] of Object.entries(SECRETS))
        if (text.includes(value) || text.includes(encodeURIComponent(value))) leaks.push(`${kind} in ${what}`);
    expect(leaks).toEqual([]);
  }, 600_000);
});
