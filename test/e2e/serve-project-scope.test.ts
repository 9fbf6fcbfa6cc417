// Scope from use (issue 38.3) with real serve processes: two projects (two working directories) share one usage
// store and call different trackers; afterwards find_tool in each project ranks its own tracker first (before any
// call, both rank the same), `store scope --json` shows each project's tools and call counts, and `replay --json`
// shows the scope of recordings that name their directory.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectKey } from '../../src/core/session/scope.js';
import { BIN, fixture } from '../helpers/paths.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { node, sandbox, textOf, type Sandbox } from './serve-harness.js';

let box: Sandbox;
let config: string;
let projA: string;
let projB: string;
let store: string;

/** The same tool on two trackers: without a scope, nothing tells them apart but their ids. */
const tracker = (name: string): object => ({
  serverInfo: { name, version: '1.0.0' },
  tools: [
    {
      name: 'create_issue',
      description: "Create an issue in the team's tracker with a title and a description.",
      inputSchema: {
        type: 'object',
        properties: { title: { type: 'string' }, description: { type: 'string' } },
        required: ['title'],
      },
    },
    {
      name: 'list_issues',
      description: "List the open issues in the team's tracker.",
      inputSchema: { type: 'object', properties: {} },
    },
  ],
});

beforeAll(async () => {
  box = await sandbox('scope');
  for (const name of ['jira', 'linear']) await writeFile(join(box.dir, `${name}.json`), JSON.stringify(tracker(name)));
  config = await box.config('servers.json', {
    jira: node(fixture('servers', 'catalog-server.mjs'), join(box.dir, 'jira.json')),
    linear: node(fixture('servers', 'catalog-server.mjs'), join(box.dir, 'linear.json')),
  });
  projA = join(box.dir, 'project-a');
  projB = join(box.dir, 'project-b');
  await mkdir(projA);
  await mkdir(projB);
  store = join(box.env.MCP_SMART_DATA_DIR!, 'usage.json');
});
afterAll(async () => {
  await box?.remove();
});

/** A serve started over stdio in `cwd` (as a client starts it in its project), in meta mode. */
async function serveIn(cwd: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', '--config', config, '--mode', 'meta'],
    env: box.env,
    cwd,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'e2e-scope', version: '1' });
  await client.connect(transport);
  return client;
}

const findIds = async (client: Client, intent: string): Promise<string[]> =>
  (
    JSON.parse(textOf(await client.callTool({ name: 'find_tool', arguments: { intent, k: 4 } }))) as {
      results: { id: string }[];
    }
  ).results.map((r) => r.id);

/** The project's counts in the store file, once serve's shutdown wrote them (it writes when the client goes). */
async function projectCounts(key: string, calls: number): Promise<Record<string, { success: number }>> {
  const until = Date.now() + 15_000;
  for (;;) {
    const doc = JSON.parse(await readFile(store, 'utf8').catch(() => '{}')) as {
      projects?: Record<string, Record<string, { success: number }>>;
    };
    const mine = doc.projects?.[key] ?? {};
    if (Object.values(mine).reduce((n, u) => n + u.success, 0) >= calls || Date.now() > until) return mine;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function callIn(cwd: string, id: string, times: number): Promise<void> {
  const client = await serveIn(cwd);
  try {
    for (let i = 0; i < times; i++) {
      const r = await client.callTool({ name: 'call_tool', arguments: { name: id, arguments: { title: `t${i}` } } });
      expect(r.isError).toBeFalsy();
    }
  } finally {
    await client.close();
  }
}

describe('serve: tools scoped per project, derived from use', () => {
  it('each project ranks the tracker it used first; store scope and replay show each scope', async () => {
    const intent = 'create an issue for the login bug';
    // Before any call: both projects rank the same (no project data: the ranking is the unscoped one).
    const before = await serveIn(projA);
    const unscoped = await findIds(before, intent);
    await before.close();
    const beforeB = await serveIn(projB);
    expect(await findIds(beforeB, intent)).toEqual(unscoped);
    await beforeB.close();
    expect(unscoped[0]).toBe('jira.create_issue');

    // Project A files its issues on Linear, project B on Jira.
    await callIn(projA, 'linear.create_issue', 3);
    expect(await projectCounts(projectKey(projA), 3)).toMatchObject({ 'linear.create_issue': { success: 3 } });
    await callIn(projB, 'jira.create_issue', 2);
    expect(await projectCounts(projectKey(projB), 2)).toMatchObject({ 'jira.create_issue': { success: 2 } });

    const a = await serveIn(projA);
    const rankedA = await findIds(a, intent);
    await a.close();
    const b = await serveIn(projB);
    const rankedB = await findIds(b, intent);
    await b.close();
    expect(rankedA[0]).toBe('linear.create_issue');
    expect(rankedB[0]).toBe('jira.create_issue');

    // store scope: both projects with their tools and counts; --project narrows to one; no path is printed.
    const opts = { cwd: projA, env: box.env, timeoutMs: 30_000 };
    const all = await spawnCli(['store', 'scope', '--json'], opts);
    expect(all.code).toBe(0);
    const doc = JSON.parse(all.stdout) as {
      here: string;
      scopes: { key: string; kind: string; calls: number; tools: { id: string; calls: number }[] }[];
    };
    expect(doc.here).toBe(projectKey(projA));
    expect(doc.scopes).toEqual([
      ...[
        {
          key: projectKey(projA),
          kind: 'project',
          calls: 3,
          tools: [{ id: 'linear.create_issue', calls: 3, success: 3 }],
        },
        {
          key: projectKey(projB),
          kind: 'project',
          calls: 2,
          tools: [{ id: 'jira.create_issue', calls: 2, success: 2 }],
        },
      ].sort((x, y) => (x.key < y.key ? -1 : 1)),
    ]);
    // The store is named by its path (as every store command does); the projects only by their keys.
    expect(all.stdout).not.toContain('project-a');
    expect(all.stdout).not.toContain('project-b');
    const onlyB = await spawnCli(['store', 'scope', '--project', projB, '--json'], opts);
    expect((JSON.parse(onlyB.stdout) as typeof doc).scopes.map((s) => s.key)).toEqual([projectKey(projB)]);
    const text = await spawnCli(['store', 'scope'], opts);
    expect(text.stdout).toContain(`project ${projectKey(projA)} (this directory): 1 tool(s), 3 call(s)`);
    expect(text.stdout).toMatch(/^ {4}linear\.create_issue {2}3$/m);

    // replay: labelled intents that name their directory; its scope per project, with the counts recorded.
    const rec = join(box.dir, 'recorded.jsonl');
    const line = (cwd: string, id: string, n: number): string =>
      JSON.stringify({ intent: `file bug ${n}`, expected: [id], cwd, session: cwd }) + '\n';
    await writeFile(
      rec,
      [1, 2].map((n) => line('/work/x', 'linear.create_issue', n)).join('') + line('/work/y', 'jira.list_issues', 3),
    );
    const replay = await spawnCli(['replay', rec, '--config', config, '--no-store', '--json'], opts);
    expect(replay.code).toBe(0);
    expect((JSON.parse(replay.stdout) as { scope: unknown }).scope).toEqual([
      ...[
        {
          key: projectKey('/work/x'),
          kind: 'project',
          calls: 2,
          tools: [{ id: 'linear.create_issue', calls: 2, success: 2 }],
        },
        {
          key: projectKey('/work/y'),
          kind: 'project',
          calls: 1,
          tools: [{ id: 'jira.list_issues', calls: 1, success: 1 }],
        },
      ].sort((x, y) => (x.key < y.key ? -1 : 1)),
    ]);
  }, 120_000);
});
