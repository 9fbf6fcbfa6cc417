// server-everything registers get-roots-list, trigger-elicitation-request, trigger-url-elicitation and
// trigger-sampling-request only for a client that declares roots / elicitation (url) / sampling. A list taken "as a
// client sees it" must be taken with that client's declaration: through `serve` (the connected client's), and by
// `audit --client X` (X's, from the measured table). Each expected list is taken here by a direct SDK connection.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_DECLARATIONS } from '../../src/core/declared-capabilities.js';
import { REPO, fixture } from '../helpers/paths.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { connectServeStdio, node, sandbox, startServeHttp, type Sandbox } from './serve-harness.js';

const TIMEOUT_MS = 90_000;
const EVERYTHING = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const ALL: ClientCapabilities = {
  roots: { listChanged: true },
  elicitation: { form: {}, url: {} },
  sampling: {},
};

/** Answers what server-everything may ask right after initialize (it syncs the roots of a client that has them). */
function answering(client: Client, caps: ClientCapabilities): Client {
  if (caps.roots) client.setRequestHandler('roots/list', () => ({ roots: [] }));
  if (caps.elicitation) client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
  if (caps.sampling)
    client.setRequestHandler('sampling/createMessage', () => ({
      model: 'none',
      role: 'assistant',
      content: { type: 'text', text: '' },
    }));
  return client;
}

/** The tool names server-everything lists to a client that declares `caps`, connecting directly. */
async function directTools(caps: ClientCapabilities): Promise<string[]> {
  const client = answering(new Client({ name: 'direct', version: '1' }, { capabilities: caps }), caps);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING], stderr: 'ignore' }));
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await client.close();
  }
}

/** The tool names `serve --mode tools` lists to a client declaring `caps` (on the 2026-07-28 era when `modern`). */
async function servedTools(box: Sandbox, config: string, caps: ClientCapabilities, modern = false): Promise<string[]> {
  const args = ['--config', config, '--mode', 'tools', '--no-learn'];
  const { client } = await connectServeStdio(box.env, args, caps, modern);
  if (!modern) answering(client, caps);
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await client.close();
  }
}

let box: Sandbox;
let config: string;
let withAll: string[];
let withNone: string[];
beforeAll(async () => {
  box = await sandbox('caps');
  config = await box.config('everything.json', { everything: node(EVERYTHING) });
  [withAll, withNone] = await Promise.all([directTools(ALL), directTools({})]);
}, TIMEOUT_MS);
afterAll(async () => box.remove());

describe('the client’s declared capabilities decide the tool list', () => {
  it('server-everything lists more tools to a client that declares roots, elicitation and sampling', () => {
    // The premise of the tests below: without it they could not tell the two lists apart.
    expect(withAll.length).toBeGreaterThan(withNone.length);
    expect(withAll).toEqual(expect.arrayContaining(['get-roots-list', 'trigger-elicitation-request']));
    expect(withNone).not.toContain('get-roots-list');
  });

  it(
    'through serve, each client sees the list a direct connection with its capabilities gets — cold and from the cache',
    async () => {
      // Cold cache: serve lists at start (nothing declared yet), then again once the client has initialized.
      expect(await servedTools(box, config, ALL)).toEqual(withAll);
      // The cache now holds both lists, each under its own declaration: neither answers for the other.
      expect(await servedTools(box, config, {})).toEqual(withNone);
      expect(await servedTools(box, config, ALL)).toEqual(withAll);
    },
    TIMEOUT_MS,
  );

  it(
    'a 2026-07-28 client (no initialize; its declaration in every request’s _meta, as Claude Code 2.1.332 talks to ' +
      'serve) sees the list a direct connection with its capabilities gets',
    async () => {
      const modernBox = await sandbox('caps-modern');
      try {
        const modernConfig = await modernBox.config('everything.json', { everything: node(EVERYTHING) });
        // Cold cache, then the cache holding the list under the declaration the first request carried.
        expect(await servedTools(modernBox, modernConfig, ALL, true)).toEqual(withAll);
        expect(await servedTools(modernBox, modernConfig, ALL, true)).toEqual(withAll);
        expect(await servedTools(modernBox, modernConfig, {}, true)).toEqual(withNone);
      } finally {
        await modernBox.remove();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'the counts of tools listed after serve started (cold, or for a client’s declaration) are written to the count cache: the next start needs no tokenizer',
    async () => {
      const countBox = await sandbox('caps-counts');
      try {
        const file = await countBox.config('everything.json', { everything: node(EVERYTHING) });
        const counted = async (): Promise<number> => {
          const dir = join(countBox.dir, 'cache', 'token-counts');
          let n = 0;
          for (const name of await readdir(dir).catch(() => [] as string[]))
            n += Object.keys((JSON.parse(await readFile(join(dir, name), 'utf8')) as { counts: object }).counts).length;
          return n;
        };
        /** The entry count once it has settled (the cache is written in the background). */
        const settledCount = async (): Promise<number> => {
          let last = -1;
          for (let i = 0; i < 50; i++) {
            const n = await counted();
            if (n === last && n > 0) return n;
            last = n;
            await new Promise((r) => setTimeout(r, 200));
          }
          return last;
        };
        // Cold caches: serve lists the server after its first view, and the counts of that list are written too.
        expect(await servedTools(countBox, file, {})).toEqual(withNone);
        expect(await settledCount()).toBe(withNone.length);
        // A client declaring everything: serve lists again and counts the tools only that declaration brings.
        expect(await servedTools(countBox, file, ALL)).toEqual(withAll);
        expect(await settledCount()).toBe(withAll.length);
      } finally {
        await countBox.remove();
      }
    },
    TIMEOUT_MS,
  );

  /** Each client's own user config, naming server-everything the client's way (and, for Gemini, a trusted folder). */
  const clientFiles: Record<'claude-code' | 'codex' | 'gemini', (home: string, project: string) => Promise<void>> = {
    'claude-code': (home) =>
      writeFile(
        join(home, '.claude.json'),
        JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
      ),
    codex: async (home) => {
      await mkdir(join(home, '.codex'), { recursive: true });
      await writeFile(
        join(home, '.codex', 'config.toml'),
        `[mcp_servers.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}]\n`,
      );
    },
    gemini: async (home, project) => {
      await mkdir(join(home, '.gemini'), { recursive: true });
      await writeFile(
        join(home, '.gemini', 'settings.json'),
        JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
      );
      await writeFile(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    },
  };

  it.each(['claude-code', 'codex', 'gemini'] as const)(
    'audit --client %s counts what a direct connection declaring that client’s capabilities lists',
    async (client) => {
      const declared = CLIENT_DECLARATIONS[client]!.capabilities as ClientCapabilities;
      const expected = await directTools(declared);
      const home = join(box.dir, `home-${client}`);
      const project = join(box.dir, `project-${client}`);
      await mkdir(project, { recursive: true });
      await mkdir(home, { recursive: true });
      await clientFiles[client](home, project);
      const env = { ...box.env, HOME: home, CODEX_HOME: join(home, '.codex') };
      const audit = async (...flags: string[]) => {
        const r = await spawnCli([...flags, 'audit', '--json'], { cwd: project, env, timeoutMs: 60_000 });
        expect(r.code, r.stderr).toBe(0);
        const doc = JSON.parse(r.stdout) as { servers: { name: string; tools: { name: string }[] }[] };
        return doc.servers
          .find((s) => s.name === 'everything')!
          .tools.map((t) => t.name)
          .sort();
      };
      const asClient = await audit('--client', client);
      expect(asClient).toEqual(expected);
      // What the client declares shows: more than a declaration of nothing lists.
      expect(asClient.length).toBeGreaterThan(withNone.length);
      if (client === 'claude-code') {
        // Without --client nothing is declared: the capability-gated tools are not there.
        expect(await audit()).toEqual(withNone);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'a declared request no connected client can answer is answered, not left hanging: no roots, declined, refused',
    async () => {
      const asks = await box.config('asks.json', { asks: node(fixture('servers', 'asks-client.mjs')) });
      const serve = await startServeHttp(box.env, ['--config', asks, '--mode', 'tools', '--no-learn']);
      try {
        // The first client declares everything, so the server behind is started with it; then it leaves.
        const first = answering(new Client({ name: 'first', version: '1' }, { capabilities: ALL }), ALL);
        await first.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
        expect((await first.listTools()).tools.map((t) => t.name)).toContain('sign_up');
        await first.close();
        // The second declares nothing: the server's requests inside its call get mcp-smart's own answers.
        const second = new Client({ name: 'second', version: '1' }, { capabilities: {} });
        await second.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
        // roots/list → [] and elicitation → decline came back (the server went on to sampling), and sampling was
        // refused at once: the server's error reaches the caller well before any time limit.
        const started = Date.now();
        await expect(
          second.callTool({ name: 'sign_up', arguments: { team: 'red' } }, { timeout: 20_000 }),
        ).rejects.toThrow(/mcp-smart has no model to answer sampling\/createMessage/);
        expect(Date.now() - started).toBeLessThan(15_000);
        await second.close();
      } finally {
        expect(await serve.stop()).toBe(143);
      }
    },
    TIMEOUT_MS,
  );
});
