// serve's cold start in tools/auto mode starts the servers' processes as soon as its config is read, before the client
// has said what it declares (serve/prespawn.ts); the pool's first start of each server adopts that process and
// begins the MCP session there. What a user meets: the same server process that booted ahead is the one serving
// (not a second start), it was initialized with the client's declaration (server-everything lists get-roots-list
// only to a client declaring roots), a process that could not start or died before it was adopted fails exactly as
// a fresh start does, and one no start took is ended with its group. Real processes throughout.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerSession } from '../../src/core/connect/server-session.js';
import type { ServerDefinition } from '../../src/core/types.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { inheritedFrom } from '../../src/core/connect/server-process.js';
import { CLIENT_DECLARATIONS } from '../../src/core/declared-capabilities.js';
import type { DeclaredCapabilities } from '../../src/core/declared-capabilities.js';
import { Prespawned } from '../../src/serve/prespawn.js';
import { BIN, REPO, fixture } from '../helpers/paths.js';
import { openRawStdio } from '../helpers/raw-stdio.js';
import { node, sandbox, until, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
const EVERYTHING = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const CLAUDE = CLIENT_DECLARATIONS['claude-code']!.capabilities;

let box: Sandbox;
beforeAll(async () => {
  box = await sandbox('prespawn');
});
afterAll(async () => box.remove());

const stdio = (name: string, command: string, args: string[] = []): ServerDefinition => ({
  name,
  transport: 'stdio',
  command,
  args,
  enabled: true,
  source: 'test',
  scope: 'explicit',
});
/** The tiny catalogue server, writing its pid to `marker` as soon as its process runs. */
const tiny = (name: string, marker: string): ServerDefinition => {
  const { command, args } = node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json'));
  return stdio(name, command, [...args, '--marker', marker]);
};

const pidIn = (marker: string): number | undefined =>
  existsSync(marker) && readFileSync(marker, 'utf8').trim() !== '' ? Number(readFileSync(marker, 'utf8')) : undefined;
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function startedSession(def: ServerDefinition, ahead?: Prespawned, caps: DeclaredCapabilities = {}) {
  const session = new ServerSession(def, { capabilities: caps, prespawned: ahead?.take(def) });
  await session.start({ timeoutMs: 30_000 });
  return session;
}
const failureOf = async (def: ServerDefinition, ahead?: Prespawned): Promise<{ code: string; message: string }> => {
  try {
    await startedSession(def, ahead);
  } catch (e) {
    const { code, message } = e as { code: string; message: string };
    return { code, message };
  }
  throw new Error(`${def.name} started`);
};

describe('servers started ahead of the client (serve/prespawn.ts)', () => {
  it('passes on the same variables as a start through the SDK', () => {
    const parent = { ...process.env, LOGNAME: 'someone', SHELL: '() { :; }', NOT_PASSED: 'x' };
    const saved = process.env;
    process.env = parent;
    try {
      expect(inheritedFrom(parent)).toEqual(getDefaultEnvironment());
    } finally {
      process.env = saved;
    }
    expect(inheritedFrom(parent)).toMatchObject({ LOGNAME: 'someone' });
    expect(Object.keys(inheritedFrom(parent))).not.toContain('SHELL');
  });

  it(
    'is the process that serves once adopted, and is initialized with the declaration made after it booted',
    async () => {
      const marker = join(box.dir, 'ahead.pid');
      const defs = [tiny('tiny', marker), stdio('everything', process.execPath, [EVERYTHING])];
      const ahead = new Prespawned(defs);
      // Booted with nothing said to it yet: its first line of code ran.
      const bootedPid = await until(() => pidIn(marker), 30_000, 'the fixture to boot');
      const first = await startedSession(defs[0]!, ahead);
      const everything = await startedSession(defs[1]!, ahead, CLAUDE);
      try {
        expect(first.pid()).toBe(bootedPid);
        const listed = await first.listEverything(undefined, 30_000, 10);
        expect(listed.lists.tools?.map((t) => t.name)).toContain('search_notes');
        // server-everything decides its tools at initialize from what the client declared.
        const tools = (await everything.listEverything(undefined, 30_000, 10)).lists.tools?.map((t) => t.name);
        expect(tools).toContain('get-roots-list');
        // Each start took its process once: nothing is left for a later start.
        expect(ahead.take(defs[0]!)).toBeUndefined();
      } finally {
        await first.close();
        await everything.close();
      }
      expect(alive(bootedPid)).toBe(false);
    },
    TIMEOUT_MS,
  );

  it(
    'fails as a fresh start fails when its process could not start or died before it was adopted',
    async () => {
      const missing = stdio('missing', join(box.dir, 'no-such-command'));
      const dying = stdio('dying', process.execPath, [
        '-e',
        'process.stderr.write("boom at boot\\n"); process.exit(3)',
      ]);
      const ahead = new Prespawned([missing, dying]);
      // Long enough for the dying one to have exited before anything adopts it.
      await new Promise((r) => setTimeout(r, 1500));
      const adopted = [await failureOf(missing, ahead), await failureOf(dying, ahead)];
      const fresh = [await failureOf(missing), await failureOf(dying)];
      // The same failure: the command named as missing; the exit code and the last stderr line quoted (a fresh
      // start may meet the exit while writing initialize or after, so the dying one's wording is not compared).
      expect(adopted[0]).toEqual(fresh[0]);
      expect(adopted.map((f) => f.code)).toEqual(fresh.map((f) => f.code));
      for (const f of [adopted[1]!, fresh[1]!]) expect(f.message).toMatch(/code 3.*boom at boot/);
    },
    TIMEOUT_MS,
  );

  it(
    'ends a process no start took, with its group',
    async () => {
      const marker = join(box.dir, 'unused.pid');
      const ahead = new Prespawned([tiny('unused', marker)]);
      const pid = await until(() => pidIn(marker), 30_000, 'the fixture to boot');
      await ahead.endUnused();
      expect(alive(pid)).toBe(false);
    },
    TIMEOUT_MS,
  );

  it(
    'leaves no process behind when the client goes away before its first message',
    async () => {
      const marker = join(box.dir, 'serve.pid');
      const { command, args } = node(
        fixture('servers', 'catalog-server.mjs'),
        fixture('servers', 'catalogs', 'tiny.json'),
      );
      const config = await box.config('gone.json', { tiny: { command, args: [...args, '--marker', marker] } });
      const raw = openRawStdio(process.execPath, [BIN, 'serve', '--config', config, '--mode', 'tools', '--no-learn'], {
        ...box.env,
        MCP_SMART_CACHE_DIR: join(box.dir, 'cache-gone'),
        MCP_SMART_DATA_DIR: join(box.dir, 'data-gone'),
      });
      const pid = await until(() => pidIn(marker), 30_000, 'the server to boot');
      raw.child.stdin?.end();
      await raw.exited;
      await until(() => (alive(pid) ? undefined : true), 5_000, 'the server to end');
      expect(alive(pid)).toBe(false);
    },
    TIMEOUT_MS,
  );
});
