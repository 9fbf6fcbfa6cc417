// bench:find-budget — the size of `find_tool` answers on the 111-server catalogue (2,781 real tools), issue 26.
// Each intent of bench/data/find-tool-intents.json (and the reference intent) goes through ServeRuntime's
// findTool with k = 5, as serve answers it: with the default budget, and — the baseline, in the same run — with no
// budget (every result with its schema, as one JSON line, which is what find_tool sent before). Tokens are o200k_base,
// counted on the whole answer text; the budgeted answer's own count (the sum of its lines) must equal it.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DATA, REPO } from './helpers/datasets.mjs';

const dist = (p) => import(join(REPO, 'dist', p));
const { countingWith } = await dist('serve/deps.js');
const { ServeRuntime } = await dist('serve/runtime.js');
const { DEFAULT_FIND_MAX_TOKENS } = await dist('serve/find-budget.js');
const { createTokenCounter } = await dist('core/tokens/index.js');

const snapshot = JSON.parse(readFileSync(join(DATA, 'servers-111', 'catalog.snapshot.json'), 'utf8'));
const { intents, reference } = JSON.parse(readFileSync(join(REPO, 'bench', 'data', 'find-tool-intents.json'), 'utf8'));
const counter = await createTokenCounter('o200k_base');
const count = (t) => counter.count(t);
const servers = snapshot.servers.filter((s) => s.status === 'ok');

const runtime = new ServeRuntime({
  setup: {
    definitions: [],
    known: new Map(servers.map((s) => [s.name, s])),
    config: {},
    warnings: [],
    cache: null,
    usageStore: join(REPO, 'bench', 'no-usage-store.json'),
    fromSnapshot: true,
  },
  mode: 'meta',
  level: 'lossless',
  limit: 20_000,
  key: 'mcp-smart',
  activate: false,
  counting: countingWith(counter),
  usage: { tools: {} },
  learn: false,
  spawnTimeoutMs: 1000,
  callTimeoutMs: 1000,
  log: () => undefined,
  now: () => Date.now(),
  clock: () => performance.now(),
});
await runtime.init();
await runtime.warm();
const text = (r) => r.content[0].text;

/** One intent: the budgeted answer and the unbudgeted one (same ranking), with their sizes. */
async function measure(intent) {
  const budgeted = text(await runtime.findTool({ intent, k: 5 }));
  const whole = JSON.parse(text(await runtime.findTool({ intent, k: 5, maxTokens: Number.MAX_SAFE_INTEGER })));
  if (whole.note) throw new Error(`no budget, yet a note: ${whole.note}`);
  const before = JSON.stringify(whole);
  const doc = JSON.parse(budgeted);
  const ids = doc.results.map((r) => r.id);
  if (ids.join() !== whole.results.map((r) => r.id).join())
    throw new Error(`"${intent}": the budget changed the ranking`);
  const largestSchema = Math.max(
    0,
    ...whole.results.map((r) => (r.inputSchema ? count(JSON.stringify(r.inputSchema)) : 0)),
  );
  return {
    intent,
    tokens: count(budgeted),
    before: count(before),
    listed: ids.length,
    withoutSchema: doc.results.filter((r, i) => !r.inputSchema && whole.results[i].inputSchema).length,
    largestSchema,
    top: ids[0],
  };
}

const rows = [];
for (const intent of intents) rows.push(await measure(intent));
const ref = await measure(reference);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const over = rows.filter((r) => r.tokens > DEFAULT_FIND_MAX_TOKENS);
const cpu = (cpus()[0]?.model ?? 'unknown CPU').trim();

console.log(
  `find_tool answer size, 111-server catalogue (${fmt(servers.reduce((n, s) => n + s.tools.length, 0))} tools), k = 5, o200k_base`,
);
console.log(`node ${process.version}, ${cpu}, ${new Date().toISOString().slice(0, 10)}`);
console.log(`budget (default): ${fmt(DEFAULT_FIND_MAX_TOKENS)} tokens; ${intents.length} intents\n`);
console.log('| intent | no budget (before) | with the budget | results | without schema | largest schema |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of [...rows, { ...ref, intent: `(issue 26 reference) ${ref.intent}` }])
  console.log(
    `| ${r.intent} | ${fmt(r.before)} | ${fmt(r.tokens)} | ${r.listed} | ${r.withoutSchema} | ${fmt(r.largestSchema)} |`,
  );
const sizes = rows.map((r) => r.tokens);
const before = rows.map((r) => r.before);
console.log(
  `\nwith the budget: largest ${fmt(Math.max(...sizes))}, median ${fmt(median(sizes))} tokens; ` +
    `no budget: largest ${fmt(Math.max(...before))}, median ${fmt(median(before))} tokens; ` +
    `answers over the budget: ${over.length} of ${rows.length}; results kept: ${rows.reduce((n, r) => n + r.listed, 0)} of ${rows.length * 5}`,
);
if (over.length > 0) process.exitCode = 1;
