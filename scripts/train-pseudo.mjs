// Trains discover's re-ranker (src/core/discover/rerank.ts) on pseudo-queries from the tool corpus itself (issue
// 37, item 3): each of the 2,781 servers-111 tools' first description sentence is a query for that tool, ranked over
// a catalogue where that sentence is cut from its description (half the tools cut, the other half whole, then the
// halves swapped, so a pseudo-query never finds its own words and the distractors stay whole). Run after
// `npm run build`:
//   node scripts/train-pseudo.mjs [--with-dev] [--whole] [--out FILE]
//
// --with-dev: the development sets the shipped re-ranker trains on (MetaTool's tuning split every 3rd query, BFCL
// turns, the servers-111 intents) join the pseudo-queries as sets of their own (every set weighs the same).
// Without it, nothing but the tool corpus is read: no intent written for evaluation or development.
// Writes `{ all, folds }`: `all` trained on every tool (and every development query with --with-dev), `folds[f]`
// on the servers outside leave-servers-out fold f only (bench/helpers/folds.mjs; their intents left out too), for
// `node bench/generalise.mjs --model FILE`. MetaTool's test split and LiveMCPBench are never read.
// Data: the tool texts are their authors' work under each npm package's licence (../shared/data/servers-111/README.md);
// the weights are 22 numbers fitted to them. MetaTool (MIT) and BFCL (Apache-2.0) with --with-dev.
import { writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { buildDiscoverIndex, loadWordVectors } from '../dist/core/discover/index.js';
import { REPO, loadBfcl, loadMetaTool, loadServers111 } from '../bench/helpers/datasets.mjs';
import { candidates, train } from '../bench/helpers/listwise.mjs';
import { serverFolds } from '../bench/helpers/folds.mjs';

const arg = (flag) => {
  const at = process.argv.indexOf(flag);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const K = Number(arg('--folds') ?? 5);
const withDev = process.argv.includes('--with-dev');
// --whole: the sentence stays in the tool's description (the query is in its own text verbatim), one catalogue.
const whole = process.argv.includes('--whole');
// Not in data/ (what the package ships): these weights failed issue 37's gate (bench/RESULTS.md) and ship nowhere.
const out =
  arg('--out') ??
  join(REPO, 'bench', 'data', 'pseudo', `rerank-pseudo${whole ? '-whole' : ''}${withDev ? '-dev' : ''}.json`);
const vectors = await loadWordVectors();
const s111 = loadServers111();
const lso = [
  ...s111.cases,
  ...loadServers111('servers-111-questions.jsonl').cases,
  ...loadServers111('servers-111-commands.jsonl').cases,
];
const { fold, caseFold } = serverFolds([...new Set(s111.tools.map((t) => t.server))], lso, K);

/** A description's first sentence (3 to 40 words, letters in three of them) and the rest of it; null without one. */
function firstSentence(description) {
  const text = String(description ?? '').trim();
  const m = /^(.+?[.!?])(?=\s+[A-Z\p{Lu}(`"']|\s*$)/su.exec(text);
  const first = (m ? m[1] : text).split('\n')[0].trim();
  const words = first.split(/\s+/);
  if (words.length < 3 || words.length > 40 || words.filter((w) => /\p{L}{2,}/u.test(w)).length < 3) return null;
  return { query: first, rest: text.slice(text.indexOf(first) + first.length).trim() };
}

const half = (t) => createHash('sha1').update(t.id).digest()[0] & 1;

/** Pseudo-query items of these tools: two catalogues, each with one half's first sentences cut. */
function pseudoItems(tools) {
  const items = [];
  for (const h of whole ? [0] : [0, 1]) {
    const cases = [];
    const cut = tools.map((t) => {
      const s = whole || half(t) === h ? firstSentence(t.tool.description) : null;
      if (!s) return t;
      cases.push({ intent: s.query, expected: [t.id] });
      return whole ? t : { ...t, tool: { ...t.tool, description: s.rest } };
    });
    const index = buildDiscoverIndex(cut, { vectors });
    items.push(...candidates(index, cases, (t) => t.id, { set: 'pseudo' }));
  }
  return items;
}

function devItems() {
  if (!withDev) return [];
  const meta = loadMetaTool();
  const bfcl = loadBfcl();
  const index = buildDiscoverIndex(s111.tools, { vectors });
  return [
    ...candidates(
      buildDiscoverIndex(meta.tools, { vectors }),
      meta.tune.filter((_, i) => i % 3 === 0),
      (t) => t.tool.name,
      { set: 'meta', fold: -1 },
    ),
    ...candidates(buildDiscoverIndex(bfcl.tools, { vectors }), bfcl.turns, (t) => t.tool.name, {
      set: 'bfcl',
      fold: -1,
    }),
    ...s111.cases.map((c) => ({ ...candidates(index, [c], (t) => t.id, { set: 's111' })[0], fold: caseFold(c) })),
  ];
}

const t0 = performance.now();
const dev = devItems();
const folds = [];
for (let f = 0; f < K; f++) {
  const items = pseudoItems(s111.tools.filter((t) => fold.get(t.server) !== f));
  folds.push(train([...items, ...dev.filter((d) => d.fold !== f)]));
  console.log(`fold ${f}: ${items.length} pseudo-queries of the other folds' tools`);
}
const every = pseudoItems(s111.tools);
const all = train([...every, ...dev]);
const round = (m) => ({ ...m, weights: m.weights.map((w) => Math.round(w * 1e4) / 1e4) });
writeFileSync(
  out,
  JSON.stringify(
    {
      about: `scripts/train-pseudo.mjs${whole ? ' --whole' : ''}${withDev ? ' --with-dev' : ''}: ${every.length} pseudo-queries of the servers-111 tools${withDev ? ` and ${dev.length} development queries` : ''}`,
      all: round(all),
      folds: folds.map(round),
    },
    null,
    1,
  ) + '\n',
);
console.log(`${every.length} pseudo-queries; wrote ${out} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
console.log(JSON.stringify(round(all).weights));
