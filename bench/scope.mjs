// bench:scope — does a project's scope derived from use (issue 38.3) put the tools that project used in the first 5
// of find_tool for its own intents in more cases than the unscoped ranking? Held out by day, as replay is: each
// case is ranked with only what was learned on earlier days.
//
// Data: LiveMCPBench (../shared/data/livemcpbench: 527 tools on 70 servers, 95 annotated tasks). A project is one
// of the tasks' six categories (Office, Lifestyle, Leisure, Finance, Travel, Shopping): the tasks of one kind of
// work share tools, as one project's sessions do. Within a project the tasks are ordered by task id (random UUIDs)
// and dealt onto DAYS days in turn. A case is one (task, expected tool) pair; it is a hit when a tool of that name
// is in the first 5 (labels name tools without their server: bench/helpers/datasets.mjs). The calls a task made
// are its annotated tools (every tool of that name).
//
// Two comparisons, each paired (same cases, same ranking but for the scope):
//   A. no usage at all           vs  the project's scope alone;
//   B. the team's usage learned from every project's earlier days (counts and remembered intents, as serve
//      learns them)             vs  the same plus the project's scope.
// Intervals: 95 % paired bootstrap over tasks (their cases move together), 10,000 resamples, seed 38.
// `--shares` also sweeps the scope's share of the best score (checks/project-scope.ts SCOPE_SHARE).
// `--identical <dist>` checks that, with no scope, this build ranks every intent byte-identically to another build
// (e.g. /work/main/dist). Runs against dist/ (npm run build first).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildDiscoverIndex, loadWordVectors, rankTools } from '../dist/core/discover/index.js';
import { SCOPE_SHARE } from '../dist/core/discover/checks/project-scope.js';
import { scopePrior } from '../dist/core/session/scope.js';
import { seededRandom } from '../dist/core/session/tune.js';
import { detectTaskContext } from '../dist/core/discover/engine.js';
import { recordCalls, emptyUsage } from '../dist/core/session/usage.js';
import { newestRecording, usageForRanking } from '../dist/core/session/usage-store.js';
import { DATA, loadLiveMcpBench } from './helpers/datasets.mjs';

const DAYS = 5;
const K = 5;
const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};

const { tools } = loadLiveMcpBench();
const vectors = await loadWordVectors();
const index = buildDiscoverIndex(tools, { vectors });
const idsByName = new Map();
for (const t of tools) idsByName.set(t.tool.name, [...(idsByName.get(t.tool.name) ?? []), t.id]);

// Tasks with their project (category), day and expected tool names.
const raw = JSON.parse(readFileSync(join(DATA, 'livemcpbench', 'all_annotations.json'), 'utf8'));
const byProject = new Map();
for (const t of raw) {
  const labels = String(t['Annotator Metadata']?.Tools ?? '')
    .split('\n')
    .map((l) => l.replace(/^\s*\d+\.\s*/, '').trim())
    .filter((l) => idsByName.has(l));
  const expected = [...new Set(labels)];
  if (expected.length === 0) continue;
  const list = byProject.get(t.category) ?? [];
  list.push({ id: t.task_id, project: t.category, intent: t.Question, expected });
  byProject.set(t.category, list);
}
const tasks = [];
for (const [, list] of [...byProject].sort(([a], [b]) => (a < b ? -1 : 1))) {
  list.sort((a, b) => (a.id < b.id ? -1 : 1));
  list.forEach((t, j) => tasks.push({ ...t, day: j % DAYS, time: START + (j % DAYS) * DAY + j * 60_000 }));
}

if (arg('--identical')) await identical(resolve(arg('--identical')));

console.log(
  `bench:scope on LiveMCPBench: ${tools.length} tools, ${tasks.length} tasks with a catalogued tool in ${byProject.size} projects (${[
    ...byProject,
  ]
    .map(([p, l]) => `${p} ${l.length}`)
    .join(', ')}), ${DAYS} days, node ${process.version}`,
);

/** What was learned before `day`: the team's usage (all projects) and each project's counts (the store's shape). */
function learnedBefore(day) {
  const usage = emptyUsage();
  const projects = {};
  for (const t of tasks) {
    if (t.day >= day) continue;
    const calls = t.expected.flatMap((name) => idsByName.get(name).map((id) => ({ id, ok: true, known: true })));
    recordCalls(usage, calls, detectTaskContext(t.intent).type, t.time, t.intent);
    const mine = (projects[t.project] ??= {});
    for (const c of calls) {
      const u = (mine[c.id] ??= { success: 0, failure: 0, lastUsed: 0 });
      u.success++;
      u.lastUsed = Math.max(u.lastUsed, t.time);
    }
  }
  return { usage, projects };
}

/** Per task: [hits of each case] under one ranking setting. */
function run(share) {
  const out = { none: [], scope: [], team: [], teamScope: [], scoped: 0 };
  for (let day = 0; day < DAYS; day++) {
    const { usage, projects } = learnedBefore(day);
    const team = Object.keys(usage.tools).length > 0 ? usageForRanking(usage, START + day * DAY) : undefined;
    for (const t of tasks.filter((x) => x.day === day)) {
      const scope = scopePrior(projects, undefined, { project: t.project });
      if (scope.size > 0) out.scoped++;
      const rank = (u, s) =>
        rankTools(index, t.intent, {
          engine: 'hybrid',
          k: K,
          ...(u ? { usage: u.stats, now: newestRecording(u.stats) } : {}),
          ...(s ? { scope: s, scopeShare: share } : {}),
        }).results.map((r) => r.id);
      const hits = (top) => t.expected.map((name) => (top.some((id) => id.endsWith(`.${name}`)) ? 1 : 0));
      out.none.push(hits(rank(undefined, undefined)));
      out.scope.push(hits(rank(undefined, scope)));
      out.team.push(hits(rank(team, undefined)));
      out.teamScope.push(hits(rank(team, scope)));
    }
  }
  return out;
}

const sum = (a) => a.reduce((s, x) => s + x, 0);
/** Hits, discordant pairs and a 95 % paired bootstrap interval (over tasks) of the hit count's difference. */
function compare(a, b) {
  const cases = sum(a.map((x) => x.length));
  const ha = sum(a.map(sum));
  const hb = sum(b.map(sum));
  let won = 0;
  let lost = 0;
  a.forEach((x, i) => x.forEach((v, j) => (v > b[i][j] ? won++ : v < b[i][j] ? lost++ : 0)));
  const random = seededRandom(38);
  const diffs = a.map((x, i) => sum(x) - sum(b[i]));
  const means = [];
  for (let r = 0; r < 10_000; r++) {
    let s = 0;
    for (let i = 0; i < diffs.length; i++) s += diffs[Math.floor(random() * diffs.length)];
    means.push(s);
  }
  means.sort((x, y) => x - y);
  return { cases, ha, hb, won, lost, low: means[249], high: means[9749] };
}
const line = (label, c) =>
  `${label}: ${c.hb} → ${c.ha} of ${c.cases} cases in the first ${K} (+${c.won} −${c.lost}); difference ${c.ha - c.hb}, 95 % interval ${c.low} to ${c.high}`;

const shares = process.argv.includes('--shares') ? [0.1, 0.2, 0.3, 0.5] : [SCOPE_SHARE];
for (const share of shares) {
  const r = run(share);
  console.log(
    `\nscope share ${share}${share === SCOPE_SHARE ? ' (the default)' : ''}; ${r.scoped} of ${tasks.length} tasks had a scope (day 0 has none)`,
  );
  console.log(line('  A. no usage → scope alone', compare(r.scope, r.none)));
  console.log(line('  B. team usage → team usage + scope', compare(r.teamScope, r.team)));
}

/** With no scope, rankings of every task's intent here and in `dist` are byte-identical (JSON of the results). */
async function identical(dist) {
  const other = await import(join(dist, 'core', 'discover', 'index.js'));
  const otherIndex = other.buildDiscoverIndex(tools, { vectors: await other.loadWordVectors() });
  let same = 0;
  for (const t of tasks) {
    const a = JSON.stringify(rankTools(index, t.intent, { engine: 'hybrid', k: 20 }));
    const b = JSON.stringify(other.rankTools(otherIndex, t.intent, { engine: 'hybrid', k: 20 }));
    const c = JSON.stringify(rankTools(index, t.intent, { engine: 'hybrid', k: 20, scope: new Map() }));
    if (a === b && a === c) same++;
  }
  console.log(`no scope: ${same} of ${tasks.length} rankings byte-identical to ${dist} (and with an empty scope)`);
}
