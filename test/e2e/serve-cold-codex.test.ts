// Codex's first turn through the entry `adopt codex --apply` writes, on a cold machine: the real Codex CLI (pinned
// devDependency, offline, a fresh CODEX_HOME; its model played by test/helpers/model-apis.ts) with a user's server
// that is slow to start (fixtures/servers/catalog-server.mjs --delay-ms), adopted and switched as a user does it, the
// entry left exactly as written and no global Codex setting beyond the stand-in model. Codex sends its first request
// about 1 s after launch without the tools of a server still starting; a cold serve (fresh HOME, no catalogue cache)
// lists later than that. The first model request must offer serve's tools, three cold starts in a row; and when
// serve cannot start, Codex must stop with its error naming the entry, soon, not run the turn without it.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODEX_STARTUP_KEYS } from '../../src/core/adopt/codex-startup.js';
import { SWITCH_ENTRY } from '../../src/core/adopt/switch-plan.js';
import { CODEX_EXEC, codexModelSettings, modelToolName } from '../helpers/client-turn.js';
import { modelStandIn, type SeenRequest } from '../helpers/model-apis.js';
import { BIN, fixture, requireBuild } from '../helpers/paths.js';
import { RealClient, runGroup, type ClientRun } from '../helpers/real-clients.js';

beforeAll(requireBuild);

const TINY = ['create_note', 'current_time', 'delete_note', 'echo', 'search_notes'];
/** Well past Codex's 1 s: the server behind serve answers nothing for this long. */
const START_DELAY_MS = 2500;

interface ColdTurn {
  client: RealClient;
  run: ClientRun;
  requests: SeenRequest[];
  ms: number;
  /** The switched config.toml as adopt wrote it. */
  written: string;
}

const SLOW = [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')];
const SLOW_ARGS = [...SLOW, '--delay-ms', String(START_DELAY_MS)];

/** mcp-smart as the user runs it, in the client's project with the client's environment. */
async function mcpSmart(client: RealClient, args: string[]): Promise<ClientRun> {
  const run = await runGroup(process.execPath, [BIN, ...args], {
    cwd: client.project,
    env: client.env,
    timeoutMs: 120_000,
  });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return run;
}

/** The user's slow server in ~/.codex/config.toml, then `mcp-smart adopt codex --apply` in the project. */
async function adopted(client: RealClient, settings: string[], file: string): Promise<void> {
  const user = ['[mcp_servers.notes]', `command = ${JSON.stringify(process.execPath)}`];
  writeFileSync(file, `${[...settings, ...user, `args = ${JSON.stringify(SLOW_ARGS)}`].join('\n')}\n`);
  await mcpSmart(client, ['adopt', 'codex', '--apply']);
}

/** The user's slow server in mcp-smart.config.json, and the TOML entry `serve --print-config codex` prints pasted. */
async function pasted(client: RealClient, settings: string[], file: string): Promise<void> {
  const config = join(client.project, 'mcp-smart.config.json');
  writeFileSync(config, JSON.stringify({ servers: { notes: { command: process.execPath, args: SLOW_ARGS } } }));
  const printed = await mcpSmart(client, [
    '--config',
    config,
    'serve',
    '--print-config',
    'codex',
    '--key',
    SWITCH_ENTRY,
  ]);
  const entry = printed.stdout.slice(printed.stdout.indexOf(`[mcp_servers.${SWITCH_ENTRY}]`));
  writeFileSync(file, `${settings.join('\n')}\n${entry}`);
}

/**
 * A fresh Codex whose config.toml `setup` writes below the stand-in model's settings, `before` applied to that state
 * (breaking serve), then one `codex exec` turn, its model answering "done".
 */
async function coldTurn(
  setup: (client: RealClient, settings: string[], file: string) => Promise<void>,
  before: (client: RealClient) => void = () => undefined,
): Promise<ColdTurn> {
  const client = new RealClient('codex');
  const model = await modelStandIn('codex', () => ({ text: 'done' }));
  try {
    const file = join(client.home, '.codex', 'config.toml');
    await setup(client, codexModelSettings(model.baseUrl), file);
    const written = readFileSync(file, 'utf8');
    // Cold: nothing of the servers' lists cached in this HOME (V8's code cache of mcp-smart's own start aside).
    const cache = join(client.home, '.cache', 'mcp-smart');
    expect(existsSync(cache) ? readdirSync(cache).filter((n) => n !== 'compile') : []).toEqual([]);
    before(client);
    const started = Date.now();
    const run = await client.run(CODEX_EXEC.args('Use the tools as asked.'), 180_000, CODEX_EXEC.env);
    return { client, run, requests: model.requests, ms: Date.now() - started, written };
  } finally {
    await model.close();
  }
}

/** serve's tools offered in a request (Codex's `mcp__<entry>/` namespace removed), sorted. */
const served = (req: SeenRequest | undefined): string[] => {
  const prefix = modelToolName('codex', SWITCH_ENTRY, '');
  return (req?.tools ?? [])
    .filter((t) => t.startsWith(prefix))
    .map((t) => t.slice(prefix.length))
    .sort();
};

describe('Codex through the entry adopt writes, on a cold start', () => {
  it("offers serve's tools in its first model request, three cold starts in a row, the server behind slow to start", async () => {
    for (let n = 1; n <= 3; n++) {
      const turn = await coldTurn(adopted);
      const toml = parseToml(turn.written) as Record<string, unknown> & {
        mcp_servers: Record<string, Record<string, unknown>>;
      };
      // The switch as written (the user's server off, serve's entry added) and no Codex-wide MCP setting: the
      // stand-in model's settings are the only others.
      expect(toml.mcp_servers.notes).toMatchObject({ enabled: false });
      expect(Object.keys(toml.mcp_servers)).toEqual(['notes', SWITCH_ENTRY]);
      expect(Object.keys(toml).filter((k) => k.startsWith('mcp_'))).toEqual(['mcp_servers']);
      expect(turn.run.code, turn.run.stderr.slice(-2000)).toBe(0);
      console.info(
        `cold codex ${n}: codex exec ran ${turn.ms} ms, its first request offered ${served(turn.requests[0]).length} tools`,
      );
      expect(served(turn.requests[0]), `cold start ${n}`).toEqual(TINY);
      // What makes Codex wait: the entry's own keys (src/core/adopt/codex-startup.ts).
      expect(toml.mcp_servers[SWITCH_ENTRY]).toMatchObject(CODEX_STARTUP_KEYS);
    }
  }, 600_000);

  it('offers them too through the TOML entry `serve --print-config codex` prints, pasted as printed', async () => {
    const turn = await coldTurn(pasted);
    expect(turn.run.code, turn.run.stderr.slice(-2000)).toBe(0);
    expect(served(turn.requests[0])).toEqual(TINY);
  }, 300_000);

  it("stops with Codex's error naming the entry when serve cannot start, within the entry's startup timeout", async () => {
    // serve cannot start: the file its entry names is gone (serve exits 2 at once).
    const turn = await coldTurn(adopted, (client) => rmSync(join(client.project, 'mcp-smart.config.json')));
    expect(turn.run.code).not.toBe(0);
    expect(turn.run.stderr).toMatch(
      new RegExp(`required MCP servers failed to initialize: ${SWITCH_ENTRY}: handshaking with MCP server failed`),
    );
    // No turn ran without serve's tools, and Codex did not wait out the timeout for a process that had exited.
    expect(turn.requests).toEqual([]);
    expect(turn.ms).toBeLessThan(CODEX_STARTUP_KEYS.startup_timeout_sec * 1000);
  }, 300_000);
});
