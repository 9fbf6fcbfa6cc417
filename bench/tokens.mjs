// bench:tokens — counting throughput of `audit` on LiveMCPBench vs a raw tokenizer loop over the same texts
// (same process), js-tiktoken for comparison, warm re-audit from the count cache, condense time for 10,000
// tools, and the level totals for LiveMCPBench's 527 tools. Runs against dist/ (npm run build first).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const REPO = join(fileURLToPath(import.meta.url), '..', '..');
const DATA = join(REPO, '..', 'shared', 'data', 'livemcpbench', 'tools.json');
const REPS = Number(process.env.BENCH_REPS ?? 7);

const t0 = performance.now();
const tokens = await import(join(REPO, 'dist/core/tokens/index.js'));
const audit = await import(join(REPO, 'dist/core/audit/index.js'));
const condense = await import(join(REPO, 'dist/core/condense/index.js'));
const moduleLoadMs = performance.now() - t0;

const doc = JSON.parse(readFileSync(DATA, 'utf8'));
const servers = doc.flatMap((e) =>
  Object.entries(e.tools).map(([name, s]) => ({ name, transport: 'stdio', status: 'ok', tools: s.tools })),
);
const allTools = servers.flatMap((s) => s.tools);

// Minimum of alternating repetitions: the least disturbed run on a shared machine.
const best = (xs) => Math.min(...xs);
const mb = (texts) => texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
const fmt = (n, d = 1) => n.toFixed(d);
function time(fn) {
  const s = performance.now();
  const r = fn();
  return { ms: performance.now() - s, r };
}
async function timeAsync(fn) {
  const s = performance.now();
  const r = await fn();
  return { ms: performance.now() - s, r };
}

console.log(
  `bench:tokens — ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}`,
);
console.log(
  `LiveMCPBench: ${servers.length} servers, ${allTools.length} tools; dist modules loaded in ${fmt(moduleLoadMs)} ms\n`,
);

const { Tiktoken } = await import('js-tiktoken/lite');

for (const encoding of ['o200k_base', 'cl100k_base']) {
  console.log(`== ${encoding}`);
  const gl = await timeAsync(() => tokens.loadTokenizer(encoding));
  const gptCount = gl.r;
  const jl = await timeAsync(async () => new Tiktoken((await import(`js-tiktoken/ranks/${encoding}`)).default));
  const jsEnc = jl.r;
  const jsCount = (t) => (t === '' ? 0 : jsEnc.encode(t, [], []).length);
  console.log(`tokenizer load: gpt-tokenizer ${fmt(gl.ms)} ms, js-tiktoken ${fmt(jl.ms)} ms`);

  // The texts audit actually tokenizes (unique renderings at every level, descriptions, headings).
  const tokenized = [];
  const rec = await tokens.createTokenCounter(encoding, { tokenize: (t) => (tokenized.push(t), gptCount(t)) });
  audit.countAudit(audit.renderAudit(servers, 'json'), rec, { window: 200_000 });
  const size = mb(tokenized);
  // Every text audit reports a count for (duplicates included: unchanged tools render the same at several levels).
  const renderedOnce = audit.renderAudit(servers, 'json');
  const counted = renderedOnce.texts;
  const countedSize = mb(counted);

  // Counting phase on the very same string objects the raw loop reads.
  const countOnly = async (tokenize) => {
    const counter = await tokens.createTokenCounter(encoding, { tokenize });
    return time(() => audit.countAudit(renderedOnce, counter, { window: 200_000 })).ms;
  };
  const runAudit = async (tokenize) => {
    const counter = await tokens.createTokenCounter(encoding, { tokenize });
    return audit.countAudit(audit.renderAudit(servers, 'json'), counter, { window: 200_000 });
  };
  // Warm both paths once (JIT, merge caches), then alternate.
  for (const t of tokenized) gptCount(t);
  await runAudit(gptCount);
  const auditMs = [];
  const rawMs = [];
  const jsAuditMs = [];
  const jsRawMs = [];
  const rawAllMs = [];
  const countMs = [];
  let sink = 0;
  for (let i = 0; i < REPS; i++) {
    countMs.push(await countOnly(gptCount));
    rawAllMs.push(
      time(() => {
        for (const t of counted) sink += gptCount(t);
      }).ms,
    );
    rawMs.push(
      time(() => {
        for (const t of tokenized) sink += gptCount(t);
      }).ms,
    );
    auditMs.push((await timeAsync(() => runAudit(gptCount))).ms);
    jsRawMs.push(
      time(() => {
        for (const t of tokenized) sink += jsCount(t);
      }).ms,
    );
    jsAuditMs.push((await timeAsync(() => runAudit(jsCount))).ms);
  }
  const a = best(auditMs);
  const r = best(rawMs);
  const ja = best(jsAuditMs);
  const jr = best(jsRawMs);
  const ra = best(rawAllMs);
  console.log(
    `texts audit counts: ${counted.length} (${fmt(countedSize, 2)} MB); unique texts it tokenizes: ${tokenized.length} (${fmt(size, 2)} MB)`,
  );
  const cm = best(countMs);
  console.log(
    `gpt-tokenizer  raw loop over the texts audit counts ${fmt(ra)} ms (${fmt(countedSize / (ra / 1000), 2)} MB/s) | audit counting ${fmt(cm)} ms (${fmt(countedSize / (cm / 1000), 2)} MB/s) | ratio raw/audit = ${fmt(ra / cm, 3)} (goal >= 0.9)`,
  );
  console.log(
    `  end to end (render + condense 4 levels + count + findings): audit ${fmt(a)} ms | ratio raw/audit = ${fmt(ra / a, 3)}`,
  );
  console.log('strict variant (raw loop over only the unique texts, audit end to end):');
  console.log(
    `gpt-tokenizer  raw loop ${fmt(r)} ms (${fmt(size / (r / 1000), 2)} MB/s) | audit ${fmt(a)} ms (${fmt(size / (a / 1000), 2)} MB/s) | ratio raw/audit = ${fmt(r / a, 3)}`,
  );
  console.log(
    `js-tiktoken    raw loop ${fmt(jr)} ms (${fmt(size / (jr / 1000), 2)} MB/s) | audit ${fmt(ja)} ms (${fmt(size / (ja / 1000), 2)} MB/s) | ratio raw/audit = ${fmt(jr / ja, 3)}`,
  );
  console.log(`gpt-tokenizer vs js-tiktoken audit speed-up: ${fmt(ja / a, 2)}x`);

  // Count cache: cold audit writing the cache, then a warm re-audit from a new counter (as a new process would).
  const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-'));
  let calls = 0;
  const cold = await timeAsync(async () => {
    const rendered = audit.renderAudit(servers, 'json');
    const c = await tokens.createTokenCounter(encoding, { cacheDir: dir, tokenize: (t) => (calls++, gptCount(t)) });
    const res = audit.countAudit(rendered, c, { window: 200_000 });
    await c.flush();
    return res;
  });
  const coldCalls = calls;
  calls = 0;
  const warm = await timeAsync(async () => {
    const rendered = audit.renderAudit(servers, 'json');
    const c = await tokens.createTokenCounter(encoding, { cacheDir: dir, deferLoad: true });
    await tokens.prepareCounter(c, rendered.texts);
    const res = audit.countAudit(rendered, c, { window: 200_000 });
    await c.flush();
    return { res, stats: c.stats() };
  });
  const same = JSON.stringify(warm.r.res) === JSON.stringify(cold.r);
  console.log(
    `count cache: cold audit + write ${fmt(cold.ms)} ms (${coldCalls} tokenizer calls) | warm re-audit ${fmt(warm.ms)} ms (${warm.r.stats.misses} tokenizer calls, ${warm.r.stats.hits} cache hits, tokenizer not loaded; identical result: ${same})`,
  );
  rmSync(dir, { recursive: true, force: true });

  for (const style of ['json', 'cline']) {
    const c = await tokens.createTokenCounter(encoding, { tokenize: gptCount });
    const res = audit.countAudit(audit.renderAudit(servers, style), c, { window: 200_000 });
    const t = res.totals.tokens;
    const names = servers.reduce(
      (n, s) => n + tokens.countServerTokens(condense.condenseTools(s.tools, 'names'), c, style, s.name).total,
      0,
    );
    console.log(
      `totals (${style}): full ${t.full} | lossless ${t.lossless} | compact ${t.compact} | minimal ${t.minimal} | names ${names} | meta ${t.meta}  (${res.totals.toolCount} tools)`,
    );
  }
  if (sink < 0) console.log(sink);
  console.log('');
}

// Condense time for 10,000 tools (LiveMCPBench's tools cycled).
const many = Array.from({ length: 10_000 }, (_, i) => allTools[i % allTools.length]);
for (const level of ['lossless', 'compact', 'minimal']) {
  condense.condenseTools(many.slice(0, 500), level);
  const ms = best(Array.from({ length: REPS }, () => time(() => condense.condenseTools(many, level)).ms));
  console.log(`condense 10,000 tools to ${level}: ${fmt(ms)} ms`);
}
