// A server that writes its own configured secret into its tool definitions (echo-secret.mjs `described`: the
// description and an argument's default quote it): what the model is sent through serve, and what audit counts, hold
// "***" instead, on a cold start (live lists) as on a warm one (the cache, written scrubbed) — they used to differ,
// the cold one sending the key to the client. The tool's name and argument names are kept: calls still reach it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { connectServeStdio, sandbox, type Sandbox } from './serve-harness.js';

const SECRET = 'sk-live-definition-5e1f7a';
let box: Sandbox;
let config: string;

beforeAll(async () => {
  box = await sandbox('secret-definitions');
  config = join(box.dir, 'leaky.json');
  const server = { command: process.execPath, args: [fixture('servers', 'misbehaving', 'echo-secret.mjs')] };
  await writeFile(config, JSON.stringify({ mcpServers: { leaky: { ...server, env: { FIXTURE_API_TOKEN: SECRET } } } }));
});
afterAll(async () => {
  await box?.remove();
});

describe('secrets a server puts in its own definitions', () => {
  it('serve sends "***" for them, cold and warm alike; the tool keeps its name and is called', async () => {
    const lists: unknown[] = [];
    for (const start of ['cold', 'warm']) {
      const { client } = await connectServeStdio(box.env, ['--config', config, '--mode', 'tools', '--no-learn']);
      try {
        const { tools } = await client.listTools();
        const described = tools.find((t) => t.name === 'described');
        expect(described, start).toBeDefined();
        expect(described!.description).toBe('Signs requests with ***.');
        expect(JSON.stringify(tools)).not.toContain(SECRET);
        expect(Object.keys(described!.inputSchema.properties ?? {})).toEqual(['key']);
        lists.push(tools);
        const r = await client.callTool({ name: 'leak', arguments: {} });
        expect(r.isError).toBe(true);
      } finally {
        await client.close();
      }
    }
    expect(lists[1]).toEqual(lists[0]);
  }, 90_000);

  it('an error the server quotes its secret in reaches the client with "***": an error result and a JSON-RPC error', async () => {
    for (const mode of ['tools', 'meta']) {
      const { client } = await connectServeStdio(box.env, ['--config', config, '--mode', mode, '--no-learn']);
      try {
        const call = (tool: string) =>
          mode === 'tools'
            ? client.callTool({ name: tool, arguments: {} })
            : client.callTool({ name: 'call_tool', arguments: { name: `leaky.${tool}`, arguments: {} } });
        const r = await call('leak');
        expect(r.isError, mode).toBe(true);
        expect(JSON.stringify(r.content), mode).toBe(
          JSON.stringify([{ type: 'text', text: 'upstream said: token *** is not allowed' }]),
        );
        const rpc = await call('leak_rpc').then(
          (x) => JSON.stringify(x),
          (e: Error) => e.message,
        );
        expect(rpc, mode).toContain('credential *** was rejected');
        expect(rpc, mode).not.toContain(SECRET);
      } finally {
        await client.close();
      }
    }
  }, 90_000);

  it('audit counts the same tokens with an empty cache as from the cache, and never prints the value', async () => {
    const tokens: number[] = [];
    // A cache folder of its own: the first run lists live, the second reads what the first cached.
    const env = { ...box.env, MCP_SMART_CACHE_DIR: join(box.dir, 'audit-cache') };
    for (let run = 0; run < 2; run++) {
      const r = await spawnCli(['--config', config, '--json', 'audit'], {
        cwd: box.dir,
        env,
        timeoutMs: 60_000,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      const doc = JSON.parse(r.stdout) as { servers: { name: string; tokens: { full: number } }[] };
      tokens.push(doc.servers.find((s) => s.name === 'leaky')!.tokens.full);
    }
    expect(tokens[0]).toBeGreaterThan(0);
    expect(tokens[1]).toBe(tokens[0]);
  }, 90_000);
});
