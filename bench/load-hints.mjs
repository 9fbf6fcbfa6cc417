// bench:load-hints — do serve's load hints help a client's own keyword tool search find the tool a session really
// called? The fixture recordings (fixtures/sessions against fixtures/snapshots/replay-demo.json) split by time:
// the first two thirds are learned as `replay --learn` would, serve's load hints are planned from that usage
// (core/hints/load-hints.ts, the defaults), and each later case's intent is searched over the served definitions
// with and without the `anthropic/searchHint` text. The search is Claude Code 2.1.332's keyword ToolSearch scoring
// as read from its bundled code (per query word: a whole name part +12, a part containing it +6, the full name
// +3 when nothing else matched, a whole word in the hint's first 80 characters +4, in the description +2; the
// word-splitting of names is approximated by splitting on _ - and case changes). The query is the intent's words
// (stop words dropped): the model writes its own query in the real client, so absolute figures are indicative;
// the paired difference is the measurement. Also: the share of the later calls that went to always-loaded tools.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectTaskContext, toolRefsFromSnapshots, pairedBootstrap } from '../dist/core/discover/index.js';
import { STOP_WORDS } from '../dist/core/discover/tokenize.js';
import { DEFAULT_LOAD_HINTS, SEARCH_HINT_CHARS, planLoadHints } from '../dist/core/hints/load-hints.js';
import { buildCases } from '../dist/core/session/cases.js';
import { readSessionFiles } from '../dist/core/session/read.js';
import { seededRandom } from '../dist/core/session/tune.js';
import { usageForRanking } from '../dist/core/session/usage-store.js';
import { learnFromCases } from '../dist/core/session/usage.js';
import { createTokenCounter, countToolTokens } from '../dist/core/tokens/index.js';
import { REPO } from './helpers/datasets.mjs';
import { pairedDelta, rankMetrics } from './helpers/rank-metrics.mjs';

const snapshot = JSON.parse(readFileSync(join(REPO, 'fixtures', 'snapshots', 'replay-demo.json'), 'utf8'));
const refs = toolRefsFromSnapshots(snapshot.servers);
const known = refs.map((r) => ({ id: r.id, server: r.server, tool: r.tool.name }));
const read = await readSessionFiles([join(REPO, 'fixtures', 'sessions')], REPO);
const cases = buildCases(read.sessions, known).cases.sort((a, b) => a.time - b.time);
const cut = cases[Math.floor((cases.length * 2) / 3)].time;
const early = cases.filter((c) => c.time < cut);
const late = cases.filter((c) => c.time >= cut && c.expected.length > 0);
const categorize = (intent) => detectTaskContext(intent).type;
const learned = learnFromCases({ tools: {} }, early, categorize, 0);
const { stats: usage } = usageForRanking(learned, 0);

const counter = await createTokenCounter('o200k_base');
const candidates = refs.map((r) => ({
  id: r.id,
  tool: r.tool.name,
  server: r.server,
  tokens: countToolTokens(r.tool, counter),
  pinned: false,
  off: false,
}));
const hints = planLoadHints(candidates, usage, DEFAULT_LOAD_HINTS);

const esc = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const nameParts = (r) =>
  `${r.server} ${r.tool.name}`
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
const docs = refs.map((r) => ({
  id: r.id,
  parts: nameParts(r),
  full: `mcp__${r.server}__${r.tool.name}`.toLowerCase(),
  description: (r.tool.description ?? '').toLowerCase(),
  hint: (hints.searchHints.get(r.id) ?? '').slice(0, SEARCH_HINT_CHARS).toLowerCase(),
}));
const queryWords = (intent) => [
  ...new Set(
    intent
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1 && !STOP_WORDS.has(w)),
  ),
];
/** Claude Code's keyword ToolSearch score of one tool (see the header). */
function score(doc, words, withHints) {
  let s = 0;
  for (const w of words) {
    const re = new RegExp(`\\b${esc(w)}\\b`);
    if (doc.parts.includes(w)) s += 12;
    else if (doc.parts.some((p) => p.includes(w))) s += 6;
    if (doc.full.includes(w) && s === 0) s += 3;
    if (withHints && doc.hint && re.test(doc.hint)) s += 4;
    if (doc.description.includes(w) && re.test(doc.description)) s += 2;
  }
  return s;
}
const search = (intent, withHints) => {
  const words = queryWords(intent);
  return docs
    .map((d) => ({ id: d.id, s: score(d, words, withHints) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1))
    .map((x) => x.id);
};

const without = late.map((c) => rankMetrics(search(c.intent, false), new Set(c.expected)));
const withH = late.map((c) => rankMetrics(search(c.intent, true), new Set(c.expected)));
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const withInterval = (xs) => {
  const d = pairedBootstrap(
    xs,
    xs.map(() => 0),
    seededRandom(1),
  );
  return `${d.mean.toFixed(3)} [${d.low.toFixed(3)}, ${d.high.toFixed(3)}]`;
};
const lateCalls = late.flatMap((c) => c.calls.filter((x) => x.known !== false).map((x) => x.id));
const always = new Set(hints.alwaysLoad);
const share = lateCalls.filter((id) => always.has(id)).length / lateCalls.length;

console.log(`bench:load-hints on ${refs.length} tools, node ${process.version}`);
console.log(
  `time split: learn ${early.length} cases before ${new Date(cut).toISOString().slice(0, 16)}, search the next ${late.length} (labelled)`,
);
console.log(
  `load hints from the learned part: ${hints.alwaysLoad.length} always loaded (${hints.alwaysLoadTokens} tokens: ${hints.alwaysLoad.join(', ')}), search hints on ${hints.searchHints.size} tools`,
);
console.log('| keyword search over the served definitions | hit@5 [95 % interval] | MRR [95 % interval] |');
console.log('| --- | ---: | ---: |');
console.log(
  `| without hints | ${withInterval(without.map((m) => m.h5))} | ${withInterval(without.map((m) => m.rr))} |`,
);
console.log(`| with searchHint | ${withInterval(withH.map((m) => m.h5))} | ${withInterval(withH.map((m) => m.rr))} |`);
console.log(
  `| difference (paired) | ${pairedDelta(
    withH.map((m) => m.h5),
    without.map((m) => m.h5),
  )} | ${pairedDelta(
    withH.map((m) => m.rr),
    without.map((m) => m.rr),
  )} |`,
);
console.log(
  `share of the later calls that went to always-loaded tools: ${(share * 100).toFixed(1)} % (${lateCalls.filter((id) => always.has(id)).length} of ${lateCalls.length}); hit@5 mean without ${mean(without.map((m) => m.h5)).toFixed(3)}`,
);
