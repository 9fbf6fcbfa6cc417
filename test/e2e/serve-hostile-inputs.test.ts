// Hostile inputs to serve: a catastrophic `patterns` regex, a record FIFO, a backend's list_changed storm.
// A `patterns` rule is a regular expression from a config file: a catastrophic one like `(a+)+$` must not
// freeze serve. Rules run on RE2 (linear time), so find_tool answers at once and SIGTERM still stops serve.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { connectServeStdio, node, sandbox, textOf, type Sandbox } from './serve-harness.js';

let box: Sandbox;
let config = '';
// With a backtracking engine, `(a+)+$` on 40 a's and a '!' takes about 2^40 steps.
const EVIL_NAME = `${'a'.repeat(40)}!`;

beforeAll(async () => {
  box = await sandbox('hostile-patterns');
  const catalog = join(box.dir, 'catalog.json');
  await writeFile(
    catalog,
    JSON.stringify({
      serverInfo: { name: 'evil', version: '1.0.0' },
      tools: [
        {
          name: EVIL_NAME,
          description: 'A tool whose name makes a backtracking regex explode.',
          inputSchema: { type: 'object' },
        },
        { name: 'search_notes', description: 'Search notes by keyword.', inputSchema: { type: 'object' } },
      ],
    }),
  );
  config = join(box.dir, 'mcp-smart.config.json');
  await writeFile(
    config,
    JSON.stringify({
      servers: { evil: node(fixture('servers', 'catalog-server.mjs'), catalog) },
      patterns: { rules: [{ match: '(a+)+$', boost: 1 }] },
    }),
  );
});
afterAll(() => box.remove());

describe('serve with a catastrophic patterns regex', () => {
  it('find_tool answers, and serve still exits when its client closes', { timeout: 20_000 }, async () => {
    const { client, transport } = await connectServeStdio(box.env, [
      '--config',
      config,
      '--mode',
      'meta',
      '--no-learn',
    ]);
    try {
      const answer = await client.callTool({ name: 'find_tool', arguments: { intent: 'aaaa tool' } });
      expect(textOf(answer)).toContain(`evil.${EVIL_NAME}`);
    } finally {
      const pid = transport.pid;
      await client.close();
      if (pid) expect(() => process.kill(pid, 0)).toThrow();
    }
  });

  it('a pattern RE2 cannot run in linear time (a backreference) is a config error naming the key', async () => {
    const bad = join(box.dir, 'bad.config.json');
    const good = JSON.parse(await readFile(config, 'utf8')) as Record<string, unknown>;
    await writeFile(bad, JSON.stringify({ ...good, patterns: { rules: [{ match: '(a)\\1' }] } }));
    const run = await spawnCli(['--config', bad, 'serve', '--mode', 'meta'], {
      cwd: box.dir,
      env: box.env,
      timeoutMs: 15_000,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('patterns.rules[0].match');
    expect(run.stderr).toContain('RE2');
  });
});

describe('serve --record on a file it cannot append to', () => {
  it(
    'a FIFO nobody reads is refused at start (exit 2 naming it), not waited on forever',
    { timeout: 20_000 },
    async () => {
      const fifo = join(box.dir, 'cases.fifo');
      execFileSync('mkfifo', [fifo]);
      const run = await spawnCli(['--config', config, 'serve', '--mode', 'meta', '--record', fifo], {
        cwd: box.dir,
        env: box.env,
        timeoutMs: 15_000,
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`Cannot write ${fifo}: it is a pipe (FIFO) that nothing is reading`);
    },
  );

  it('a regular file receives the labelled case of a find_tool followed by its call', { timeout: 20_000 }, async () => {
    const record = join(box.dir, 'out', 'cases.jsonl');
    await findThenCall(record);
    expect(JSON.parse(await readFile(record, 'utf8'))).toEqual({
      intent: 'search my notes',
      expected: ['evil.search_notes'],
    });
  });

  it(
    'a file that is not of their kind is refused by --record and --audit-log, untouched; labelled intents get a line more',
    { timeout: 20_000 },
    async () => {
      // `--record package.json` typed by mistake appended JSON lines to package.json.
      const theirs = join(box.dir, 'package.json');
      const text = '{\n  "name": "my-app"\n}\n';
      await writeFile(theirs, text);
      for (const argv of [
        ['--mode', 'meta', '--record', theirs],
        ['--mode', 'meta', '--transport', 'http', '--audit-log', theirs],
      ]) {
        const run = await spawnCli(['--config', config, 'serve', ...argv], {
          cwd: box.dir,
          env: box.env,
          timeoutMs: 15_000,
        });
        expect(run.code, argv.join(' ')).toBe(2);
        expect(run.stderr).toContain(`Cannot write ${theirs}: it holds something other than`);
        expect(await readFile(theirs, 'utf8')).toBe(text);
      }
      const record = join(box.dir, 'labelled.jsonl');
      const first = '{"intent": "read my notes", "expected": ["evil.search_notes"]}\n';
      await writeFile(record, first);
      await findThenCall(record);
      const lines = (await readFile(record, 'utf8')).trimEnd().split('\n');
      expect(lines.length).toBe(2);
      expect(lines[0]).toBe(first.trimEnd());
      expect(JSON.parse(lines[1] ?? '')).toEqual({ intent: 'search my notes', expected: ['evil.search_notes'] });
    },
  );
});

/** A serve session with `--record <record>` that finds a tool and calls it: one labelled case. */
async function findThenCall(record: string): Promise<void> {
  const { client } = await connectServeStdio(box.env, ['--config', config, '--mode', 'meta', '--record', record]);
  try {
    await client.callTool({ name: 'find_tool', arguments: { intent: 'search my notes' } });
    await client.callTool({ name: 'call_tool', arguments: { name: 'evil.search_notes', arguments: {} } });
  } finally {
    await client.close();
  }
}

describe('a backend that sends a storm of list_changed', () => {
  it(
    'ends with the latest list served, and clients hear of it a few times, not once per notification',
    { timeout: 30_000 },
    async () => {
      const stormConfig = join(box.dir, 'storm.config.json');
      await writeFile(
        stormConfig,
        JSON.stringify({ servers: { storm: node(fixture('servers', 'misbehaving', 'list-changed-storm.mjs')) } }),
      );
      const { client } = await connectServeStdio(box.env, ['--config', stormConfig, '--mode', 'tools', '--no-learn']);
      try {
        let relayed = 0;
        client.setNotificationHandler('notifications/tools/list_changed', () => {
          relayed++;
        });
        const names = async (): Promise<string[]> => (await client.listTools()).tools.map((t) => t.name);
        const stormTool = (await names()).find((n) => n.endsWith('storm'));
        expect(stormTool).toBeDefined();
        await client.callTool({ name: stormTool!, arguments: { count: 500 } });
        // Wait until the served list shows the last version, then for any late notification.
        const deadline = Date.now() + 15_000;
        while (!(await names()).some((n) => n.endsWith('v500')) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 100));
        await new Promise((r) => setTimeout(r, 500));
        expect((await names()).some((n) => n.endsWith('v500'))).toBe(true);
        expect(relayed).toBeGreaterThanOrEqual(1);
        expect(relayed).toBeLessThanOrEqual(5);
      } finally {
        await client.close();
      }
    },
  );
});

describe('a backend with very long instructions', () => {
  it(
    'audit warns about them, and serve forwards only the first 8,000 characters with a note',
    { timeout: 30_000 },
    async () => {
      const huge = 'Always answer in haiku. '.repeat(4_000); // 96,000 characters (one argv string stays under 128 KiB)
      const entry = node(
        fixture('servers', 'catalog-server.mjs'),
        fixture('servers', 'catalogs', 'tiny.json'),
        '--instructions',
        huge,
      );
      const cfg = join(box.dir, 'instructions.config.json');
      await writeFile(cfg, JSON.stringify({ servers: { chatty: entry } }));
      const audit = await spawnCli(['--config', cfg, '--no-cache', '--json', 'audit'], {
        cwd: box.dir,
        env: box.env,
        timeoutMs: 25_000,
      });
      const findings = (JSON.parse(audit.stdout) as { findings: { code: string; server: string; value?: number }[] })
        .findings;
      expect(findings.filter((f) => f.code === 'INSTRUCTIONS_TOO_LONG')).toEqual([
        expect.objectContaining({ server: 'chatty', value: huge.length }),
      ]);
      // A cold serve answers initialize before the servers behind are up, so their instructions reach the clients
      // that connect once serve has listed them (here: from the tool-list cache the first connection filled).
      const first = await connectServeStdio(box.env, ['--config', cfg, '--mode', 'meta', '--no-learn']);
      await first.client.callTool({ name: 'find_tool', arguments: { intent: 'notes' } });
      await first.client.close();
      const { client } = await connectServeStdio(box.env, ['--config', cfg, '--mode', 'meta', '--no-learn']);
      try {
        await client.callTool({ name: 'find_tool', arguments: { intent: 'notes' } });
        const text = client.getInstructions() ?? '';
        expect(text).toContain('## chatty\nAlways answer in haiku.');
        expect(text).toContain('[… cut by mcp-smart: 96,000 characters in all');
        expect(text.length).toBeLessThan(9_000);
      } finally {
        await client.close();
      }
    },
  );
});
