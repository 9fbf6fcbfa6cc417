// bench:replay — replay throughput, tuning time on 10,000 synthetic cases (goal < 30 s) beside the plain
// rankTools-based tuner run in the same process, a check that weights tuned on the fixture recordings
// do not lower Recall@5 on LiveMCPBench, and learning on a time split of the fixture recordings (defaults from
// nothing, after --learn without and with remembered intents, after --tune; paired intervals). Runs against
// dist/. `--split` runs only the time split.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildDiscoverIndex,
  detectTaskContext,
  evaluateRankings,
  pairedBootstrap,
  loadWordVectors,
  rankTools,
  resolveWeights,
  toolRefsFromSnapshots,
} from '../dist/core/discover/index.js';
import { buildCases } from '../dist/core/session/cases.js';
import { createHybridEvaluator } from '../dist/core/session/fast-hybrid.js';
import { readSessionFiles } from '../dist/core/session/read.js';
import { replayCases } from '../dist/core/session/replay.js';
import { seededRandom, tuneWeights } from '../dist/core/session/tune.js';
import { learnFromCases } from '../dist/core/session/usage.js';
import { REPO, loadBfcl, loadLiveMcpBench } from './helpers/datasets.mjs';

const quick = process.argv.includes('--quick');
const splitOnly = process.argv.includes('--split');
const f3 = (x) => x.toFixed(3);
/** A held-out gain with its 95 % paired bootstrap interval (tuneWeights' heldOutGain). */
const interval = (g) => (g ? `${f3(g.mean)}, 95 % interval ${f3(g.low)} to ${f3(g.high)}` : 'not measured');
const categorize = (intent) => detectTaskContext(intent).type;
const DAY = 86_400_000;

const snapshot = JSON.parse(readFileSync(join(REPO, 'fixtures', 'snapshots', 'replay-demo.json'), 'utf8'));
const refs = toolRefsFromSnapshots(snapshot.servers);
const vectors = await loadWordVectors();
const index = buildDiscoverIndex(refs, { vectors });
const known = refs.map((r) => ({ id: r.id, server: r.server, tool: r.tool.name }));
const read = await readSessionFiles([join(REPO, 'fixtures', 'sessions')], REPO);
const fixtureCases = buildCases(read.sessions, known).cases;
const depth = Math.min(100, refs.length);
/** A replay ranker of one engine (and weights) over an index: the fixture recordings' unless another is given. */
const rankWith =
  (engine, weights, over = index) =>
  (intent, usage, now) =>
    rankTools(over, intent, { engine, k: depth, usage, now, ...(weights ? { weights } : {}) }).results.map((r) => r.id);

/** Synthetic cases: fixture intents with shuffled filler words, spread over `sessions` sessions and 60 days. */
function synthesize(n, sessions, seed) {
  const random = seededRandom(seed);
  const filler = ['please', 'quickly', 'again', 'for me', 'now', 'in the repo', 'when you can', 'as before'];
  const out = [];
  for (let i = 0; i < n; i++) {
    const base = fixtureCases[Math.floor(random() * fixtureCases.length)];
    const s = Math.floor(random() * sessions);
    const time = Date.UTC(2025, 0, 1) + Math.floor((i / n) * 60 * DAY);
    out.push({
      ...base,
      id: `syn${s}#${i}`,
      sessionId: `syn${s}`,
      line: i,
      time,
      intent: `${base.intent} ${filler[Math.floor(random() * filler.length)]}`,
    });
  }
  return out;
}

console.log(`bench:replay on ${refs.length} tools (fixtures/snapshots/replay-demo.json), node ${process.version}`);
console.log(
  `fixture recordings: ${fixtureCases.length} cases in ${new Set(fixtureCases.map((c) => c.sessionId)).size} sessions`,
);

if (!splitOnly) await throughputAndTuning();
timeSplit('the fixture recordings', index, fixtureCases);
const bfcl = bfclHistory();
timeSplit(`BFCL multi-turn as one history (${bfcl.tools} tools, 200 sessions)`, bfcl.index, bfcl.cases);

async function throughputAndTuning() {
  // 1. Replay throughput: every case ranked by all four engines with incremental usage.
  const replayN = quick ? 1000 : 5000;
  const replaySet = synthesize(replayN, 200, 1);
  const engines = ['hybrid', 'keyword', 'bm25', 'semantic'].map((engine) => ({ engine, rank: rankWith(engine) }));
  let t0 = performance.now();
  replayCases(replaySet, { engines, categorize, ttlMs: 7 * DAY });
  let sec = (performance.now() - t0) / 1000;
  console.log(
    `\nreplay: ${replayN} cases × 4 engines in ${sec.toFixed(2)} s = ${Math.round(replayN / sec)} cases/s (${Math.round((replayN * 4) / sec)} rankings/s)`,
  );

  // 2. Tuning time on 10,000 synthetic cases, 5 folds by session.
  const N = quick ? 2000 : 10_000;
  const tuneSet = synthesize(N, 400, 2);
  const base = resolveWeights();
  const tuneOpts = {
    base,
    rank: (intent, w, usage, now) => rankWith('hybrid', w)(intent, usage, now),
    categorize,
    folds: 5,
    seed: 1,
    ttlMs: 7 * DAY,
  };
  t0 = performance.now();
  const big = tuneWeights({
    ...tuneOpts,
    cases: tuneSet,
    makeEvaluator: (items) => createHybridEvaluator(index, items),
  });
  sec = (performance.now() - t0) / 1000;
  console.log(
    `\ntune: ${N} cases, 5-fold by session: ${sec.toFixed(2)} s (goal < 30 s), ${big.evaluations} evaluations; held-out MRR ${f3(big.heldOutMrr)} vs ${f3(big.baselineHeldOutMrr)} defaults (gain ${interval(big.heldOutGain)})`,
  );

  // Baseline in the same process: the same search with training ranked by rankTools (no fast evaluator).
  const small = synthesize(quick ? 300 : 1000, 60, 3);
  t0 = performance.now();
  const slowR = tuneWeights({ ...tuneOpts, cases: small });
  const slow = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const fastR = tuneWeights({
    ...tuneOpts,
    cases: small,
    makeEvaluator: (items) => createHybridEvaluator(index, items),
  });
  const fast = (performance.now() - t0) / 1000;
  console.log(
    `tune ${small.length} cases: rankTools-based ${slow.toFixed(2)} s vs fast evaluator ${fast.toFixed(2)} s (${(slow / fast).toFixed(1)}× faster); same weights: ${JSON.stringify(slowR.weights) === JSON.stringify(fastR.weights)}`,
  );

  // 3. Fixture recordings: defaults vs tuned, held out; then LiveMCPBench Recall@5 with both weight sets.
  const fx = tuneWeights({
    ...tuneOpts,
    cases: fixtureCases,
    makeEvaluator: (items) => createHybridEvaluator(index, items),
  });
  const fxAfter = replayCases(fixtureCases, {
    engines: [{ engine: 'hybrid', rank: rankWith('hybrid', fx.weights) }],
    categorize,
    ttlMs: 7 * DAY,
  }).engines[0];
  const fxBefore = replayCases(fixtureCases, {
    engines: [{ engine: 'hybrid', rank: rankWith('hybrid') }],
    categorize,
    ttlMs: 7 * DAY,
  }).engines[0];
  console.log(
    `\nfixtures: held-out MRR ${f3(fx.heldOutMrr)} tuned vs ${f3(fx.baselineHeldOutMrr)} defaults (${fx.folds.length} folds; gain ${interval(fx.heldOutGain)}); all cases R@5 ${f3(fxAfter.recallAt['5'])} vs ${f3(fxBefore.recallAt['5'])}, MRR ${f3(fxAfter.mrr)} vs ${f3(fxBefore.mrr)}`,
  );
  console.log(`tuned weights: ${JSON.stringify(fx.weights)}`);

  const live = loadLiveMcpBench();
  const liveIndex = buildDiscoverIndex(live.tools, { vectors });
  const liveEval = (weights) =>
    evaluateRankings(live.cases, (q) =>
      rankTools(liveIndex, q, { engine: 'hybrid', k: 30, ...(weights ? { weights } : {}) }).results.map((r) => r.tool),
    );
  const ld = liveEval();
  const lt = liveEval(fx.weights);
  console.log(
    `LiveMCPBench (${live.cases.length} queries, ${live.tools.length} tools) hybrid R@5 ${f3(lt.recallAt['5'])} tuned vs ${f3(ld.recallAt['5'])} defaults (${lt.recallAt['5'] >= ld.recallAt['5'] ? 'not lowered' : 'LOWERED'}); MRR ${f3(lt.mrr)} vs ${f3(ld.mrr)}`,
  );
}

/**
 * 4. Learning on a time split: a history's first two thirds (by time) are learned as `replay --learn` would; the
 * last third is replayed from that store (replay also learns as it goes, as `replay` does). Rows: plain bm25 and
 * hybrid defaults from nothing (`--no-store`), hybrid after --learn with counts only, with remembered intents,
 * and with weights tuned on the first part (`--tune`); gains are paired bootstrap intervals over the replayed
 * cases against the defaults from nothing. Two histories: the fixture recordings (synthetic, phrasing repeats)
 * and BFCL multi-turn's 200 tasks taken as one team's sessions in file order (each turn a case, its gold calls).
 */
function timeSplit(title, splitIndex, cases) {
  const sorted = [...cases].sort((a, b) => a.time - b.time);
  const cut = sorted[Math.floor((sorted.length * 2) / 3)].time;
  const early = sorted.filter((c) => c.time < cut);
  const late = sorted.filter((c) => c.time >= cut);
  const learned = learnFromCases({ tools: {} }, early, categorize, 0);
  const ranker = (engine, weights) => rankWith(engine, weights, splitIndex);
  const run = (engine, opts, weights) => {
    const rr = [];
    const m = replayCases(late, {
      engines: [{ engine, rank: ranker(engine, weights) }],
      categorize,
      ttlMs: 0,
      onCase: (_e, r) => rr.push(r),
      ...opts,
    }).engines[0];
    return { m, rr };
  };
  const tuned = tuneWeights({
    base: resolveWeights(),
    rank: (intent, w, usage, now) => ranker('hybrid', w)(intent, usage, now),
    categorize,
    folds: 5,
    seed: 1,
    ttlMs: 0,
    cases: early,
    makeEvaluator: (items) => createHybridEvaluator(splitIndex, items),
  });
  const rows = [
    ['bm25, from nothing', run('bm25', { rememberIntents: false })],
    ['hybrid defaults, from nothing (old replay)', run('hybrid', { rememberIntents: false })],
    ['hybrid, --learn counts only', run('hybrid', { initialUsage: { tools: learned.tools }, rememberIntents: false })],
    ['hybrid, --learn + remembered intents', run('hybrid', { initialUsage: learned })],
    ['hybrid, --learn + intents + --tune', run('hybrid', { initialUsage: learned }, tuned.weights)],
  ];
  const base = rows[1][1];
  console.log(
    `\ntime split of ${title}: learn ${early.length} cases before ${new Date(cut).toISOString().slice(0, 16)}, replay the next ${late.length}`,
  );
  for (const [name, r] of rows) {
    const g = pairedBootstrap(r.rr, base.rr, seededRandom(7));
    console.log(
      `  ${name.padEnd(44)} R@1 ${f3(r.m.recallAt['1'])}  R@5 ${f3(r.m.recallAt['5'])}  MRR ${f3(r.m.mrr)}  vs defaults ${f3(g.mean)} [${f3(g.low)}, ${f3(g.high)}]`,
    );
  }
}

/** BFCL multi-turn as one team's history: task i is a session an hour after task i − 1, each turn a case. */
function bfclHistory() {
  const { tools } = loadBfcl();
  const dir = join(REPO, 'bench', 'data', 'bfcl-multi-turn');
  const tasks = JSON.parse(readFileSync(join(dir, 'tasks.json'), 'utf8'));
  const byName = new Map();
  for (const t of tools) byName.set(t.tool.name, [...(byName.get(t.tool.name) ?? []), t]);
  const cases = [];
  tasks.forEach((task, i) => {
    task.turns.forEach((turn, j) => {
      const ids = [
        ...new Set(
          turn.gold.map((name) => {
            const all = byName.get(name) ?? [];
            return (all.find((t) => task.involvedClasses.includes(t.server)) ?? all[0])?.id;
          }),
        ),
      ].filter(Boolean);
      if (ids.length === 0) return;
      cases.push({
        id: `${task.id}#${j + 1}`,
        sessionId: task.id,
        file: 'tasks.json',
        line: j,
        intent: turn.query,
        time: Date.UTC(2025, 0, 1) + i * 3_600_000 + j * 60_000,
        expected: ids,
        calls: ids.map((id) => ({ id, server: id.slice(0, id.indexOf('.')), ok: true, known: true })),
        success: true,
      });
    });
  });
  return { index: buildDiscoverIndex(tools, { vectors }), cases, tools: tools.length };
}
