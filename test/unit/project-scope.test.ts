// Scope from use (issue 38.3): the per-project counts in the usage store, the scoped prior made of them, the
// project-scope check that ranks a project's tools first, and rankings left exactly as they were without a scope.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDiscoverIndex, rankTools } from '../../src/core/discover/index.js';
import { SCOPE_SHARE } from '../../src/core/discover/checks/project-scope.js';
import {
  deriveScopes,
  projectKey,
  projectsOfCases,
  scopePrior,
  type ProjectUsage,
} from '../../src/core/session/scope.js';
import { readUsageStore } from '../../src/core/session/usage-store.js';
import type { ReplayCase } from '../../src/core/session/cases.js';
import { FileUsageStore } from '../../src/core/store/file.js';
import { ServeScope } from '../../src/serve/scope.js';
import { catalogueEntry as tool } from '../helpers/catalogue-entry.js';
import { removeTempDirs, tempDir } from '../helpers/temp.js';

afterAll(removeTempDirs);

const TOOLS = [
  tool('jira', 'create_issue', "Create an issue in the team's tracker with a title and a description."),
  tool('linear', 'create_issue', "Create an issue in the team's tracker with a title and a description."),
  tool('github', 'create_pull_request', 'Open a pull request from a branch.'),
  tool('notes', 'search_notes', "Search the user's notes by keyword."),
];
const counts = (success: number, lastUsed = 1): { success: number; failure: number; lastUsed: number } => ({
  success,
  failure: 0,
  lastUsed,
});

describe('project keys and the scoped prior', () => {
  it('a project is stored under a hash of its directory, never the path', () => {
    expect(projectKey('/home/dev/app')).toMatch(/^p-[0-9a-f]{16}$/);
    expect(projectKey('/home/dev/app')).toBe(projectKey('/home/dev/app'));
    expect(projectKey('/home/dev/app')).not.toBe(projectKey('/home/dev/app2'));
  });

  it('weights are log-damped and relative to the most used tool; the user adds to a project that has calls', () => {
    const projects: ProjectUsage = { p: { 'a.x': counts(7), 'a.y': counts(1), 'a.z': { ...counts(0), failure: 3 } } };
    const prior = scopePrior(projects, { u: { 'b.w': counts(7) } }, { project: 'p', user: 'u' });
    expect([...prior.keys()]).toEqual(['a.x', 'a.y', 'b.w']);
    expect(prior.get('a.x')).toBe(1);
    expect(prior.get('a.y')).toBeCloseTo(Math.log(2) / Math.log(8), 12);
    // A project with no call: no scope at all, the user's counts alone change nothing (stores from before).
    expect(scopePrior(projects, { u: { 'b.w': counts(7) } }, { project: 'other', user: 'u' }).size).toBe(0);
  });

  it('derived scopes list each project, then each user, tools by calls (ties by id)', () => {
    const scopes = deriveScopes(
      { p2: { 'a.b': counts(1), 'a.a': counts(1) }, p1: { 'c.c': { success: 2, failure: 1, lastUsed: 1 } } },
      { u: { 'a.a': counts(4) } },
    );
    expect(scopes).toEqual([
      { key: 'p1', kind: 'project', calls: 3, tools: [{ id: 'c.c', calls: 3, success: 2 }] },
      {
        key: 'p2',
        kind: 'project',
        calls: 2,
        tools: [
          { id: 'a.a', calls: 1, success: 1 },
          { id: 'a.b', calls: 1, success: 1 },
        ],
      },
      { key: 'u', kind: 'user', calls: 4, tools: [{ id: 'a.a', calls: 4, success: 4 }] },
    ]);
  });

  it("replay's cases count per project of the directory their session names; unresolved calls count for none", () => {
    const c = (sessionId: string, calls: ReplayCase['calls']): ReplayCase => ({
      id: `${sessionId}#1`,
      sessionId,
      file: 'f',
      line: 1,
      intent: 'i',
      time: 5,
      expected: [],
      calls,
      success: true,
    });
    const out = projectsOfCases(
      [
        c('s1', [
          { id: 'a.x', ok: true, known: true },
          { id: 'a.x', ok: false, known: true },
        ]),
        c('s2', [{ id: 'q.q', ok: true, known: true, unresolved: true }]),
        c('s3', [{ id: 'a.y', ok: true, known: true }]),
      ],
      (id) => ({ s1: '/w/one', s2: '/w/two' })[id],
      9,
    );
    expect(out).toEqual({ [projectKey('/w/one')]: { 'a.x': { success: 1, failure: 1, lastUsed: 5 } } });
  });
});

describe('the project-scope check', () => {
  const index = buildDiscoverIndex(TOOLS);
  const intent = 'create an issue for the login bug';

  it('without project data the ranking is byte-identical to the unscoped one (no scope, an empty one, unknown ids)', () => {
    const plain = JSON.stringify(rankTools(index, intent, { engine: 'hybrid', k: 4 }));
    expect(JSON.stringify(rankTools(index, intent, { engine: 'hybrid', k: 4, scope: new Map() }))).toBe(plain);
    const elsewhere = new Map([['gone.tool', 1]]);
    expect(JSON.stringify(rankTools(index, intent, { engine: 'hybrid', k: 4, scope: elsewhere }))).toBe(plain);
    // A serve whose store has per-user counts but no project's: its prior is empty too.
    const serve = new ServeScope('/w/a', { users: { u: { 'linear.create_issue': counts(9) } } }, 'u');
    expect(serve.weights().size).toBe(0);
  });

  it("ranks the project's tool first among equals, by SCOPE_SHARE of the best score (the `scope` reason)", () => {
    const plain = rankTools(index, intent, { engine: 'hybrid', k: 4 }).results;
    expect(plain[0]!.id).toBe('jira.create_issue');
    const scope = new Map([['linear.create_issue', 1]]);
    const scoped = rankTools(index, intent, { engine: 'hybrid', k: 4, scope }).results;
    expect(scoped[0]!.id).toBe('linear.create_issue');
    const best = Math.max(...plain.map((t) => t.score));
    expect(scoped[0]!.reasons?.scope).toBeCloseTo(SCOPE_SHARE * best, 4);
    expect(scoped.find((t) => t.id === 'jira.create_issue')?.reasons?.scope).toBeUndefined();
  });

  it('does not pull in a tool the intent does not match at all', () => {
    const scope = new Map([['notes.search_notes', 1]]);
    const scoped = rankTools(index, intent, { engine: 'hybrid', k: 2, scope }).results.map((r) => r.id);
    expect(scoped).not.toContain('notes.search_notes');
  });
});

describe('per-project counts in the file store', () => {
  it('are added with the calls, kept across writes, and an old store without them reads as before', async () => {
    const dir = tempDir('mcp-smart-scope-');
    const file = join(dir, 'usage.json');
    const old = {
      format: 'mcp-smart/usage@1',
      updatedAt: new Date(1000).toISOString(),
      tools: { 'a.x': { success: 2, failure: 0, lastUsed: 1000, categories: {} } },
      intents: {},
      sessions: {},
    };
    writeFileSync(file, JSON.stringify(old));
    const before = await readUsageStore(file, 2000);
    expect(before.doc.projects).toBeUndefined();
    expect(before.doc.tools).toEqual(old.tools);

    const store = new FileUsageStore(file);
    const delta = { tools: { 'a.x': { success: 3, failure: 1, lastUsed: 1500, categories: {} } } };
    await store.add(delta, { now: 2000, project: 'p-0000000000000001', user: 'u1' });
    await store.add(delta, { now: 2000, project: 'p-0000000000000001' });
    const doc = JSON.parse(readFileSync(file, 'utf8')) as {
      tools: Record<string, { success: number }>;
      projects: ProjectUsage;
      users: ProjectUsage;
    };
    expect(doc.tools['a.x']!.success).toBe(8);
    expect(doc.projects).toEqual({ 'p-0000000000000001': { 'a.x': { success: 6, failure: 2, lastUsed: 1500 } } });
    expect(doc.users).toEqual({ u1: { 'a.x': { success: 3, failure: 1, lastUsed: 1500 } } });
    // A forgotten tool leaves the project's counts too.
    await store.forgetTools(['a.x'], 2000);
    expect((await readUsageStore(file, 2000)).doc.projects).toBeUndefined();
  });
});

describe("serve's scope", () => {
  it("a caller's subject adds that user's tools to the project's scope; serve's own user otherwise", () => {
    const doc = {
      projects: { [projectKey('/w/a')]: { 'jira.create_issue': counts(2) } },
      users: { alice: { 'github.create_pull_request': counts(5) } },
    };
    const scope = new ServeScope('/w/a', doc, undefined);
    expect([...scope.weights().keys()]).toEqual(['jira.create_issue']);
    expect([...scope.weights('alice').keys()]).toEqual(['github.create_pull_request', 'jira.create_issue']);
    // A call of bob's counts for bob (and the project) at once.
    scope.called('notes.search_notes', true, 10, 'bob');
    expect([...scope.weights('bob').keys()]).toEqual(['jira.create_issue', 'notes.search_notes']);
    expect(scope.weights('alice').has('notes.search_notes')).toBe(true);
    expect(scope.weights('alice').get('github.create_pull_request')).toBe(1);
  });

  it("counts successful calls for its project at once and plans load hints from the project's counts", () => {
    const team = {
      tools: {
        'jira.create_issue': { success: 50, failure: 0, lastUsed: 1, categories: {} },
        'linear.create_issue': { success: 2, failure: 0, lastUsed: 1, categories: {} },
      },
    };
    const scope = new ServeScope('/w/a', undefined, undefined);
    expect(scope.project).toBe(projectKey('/w/a'));
    expect(scope.hintUsage(team)).toBe(team);
    scope.called('linear.create_issue', false, 10);
    expect(scope.weights().size).toBe(0);
    scope.called('linear.create_issue', true, 10);
    expect([...scope.weights()]).toEqual([['linear.create_issue', 1]]);
    expect(scope.hintUsage(team).tools).toEqual({
      'linear.create_issue': { success: 1, failure: 0, lastUsed: 10, categories: {} },
    });
  });
});
