// Issue 36.7: serve's summary line counts each tool of the servers once — first-class or behind the meta-tools —
// instead of "64 tools served … behind it 64 tools", which read as 128. Real server processes behind a real serve.
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { connectServeStdio, node, sandbox, type Sandbox } from './serve-harness.js';

let box: Sandbox;
let client: Client | undefined;
beforeEach(async () => {
  box = await sandbox('serve-summary');
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await box.remove();
});

const SUMMARY =
  /mcp-smart serve: (\w+) mode: (\d+) tools? from (\d+) servers?: (\d+) served first-class, (\d+) behind the meta-tools; tools\/list holds (\d+) tools?/;

describe("serve's summary line", () => {
  for (const [mode, served] of [
    ['tools', 'all'],
    ['meta', 'none'],
  ] as const) {
    it(`--mode ${mode}: every tool counted once, ${served} of them first-class`, async () => {
      const file = await box.config('servers.json', {
        tiny: node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')),
        dup: node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'duplicate-names.json')),
      });
      const serve = await connectServeStdio(box.env, ['--no-cache', '-c', file, '--mode', mode, '--no-learn']);
      client = serve.client;
      const listed = (await client.listTools()).tools.map((t) => t.name);
      const line = await serve.waitForStderr(SUMMARY, 30_000);
      const [, m, total, servers, first, behind, inList] = SUMMARY.exec(line)!;
      expect(m).toBe(mode);
      expect(Number(servers)).toBe(2);
      expect(Number(first) + Number(behind)).toBe(Number(total));
      expect(Number(inList)).toBe(listed.length);
      if (mode === 'tools') {
        expect(Number(behind)).toBe(0);
        expect(Number(first)).toBe(listed.length);
      } else {
        expect(Number(first)).toBe(0);
        expect(listed).toEqual(['find_tool', 'describe_tool', 'list_tools', 'call_tool', 'call_tool_read']);
      }
    }, 60_000);
  }
});
