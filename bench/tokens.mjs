// bench:tokens — counting throughput of `audit` on LiveMCPBench vs a raw tokenizer loop over the same texts
// (same process), js-tiktoken for comparison, warm re-audit from the count cache, condense time for 10,000
// tools, the level totals for LiveMCPBench's 527 tools, and long pieces (letter runs up to 1 MB, blobs, 64k CJK
// characters): ours vs gpt-tokenizer as shipped (the old, quadratic path) vs tiktoken WASM, whose counts are the
// independent reference. Runs against dist/ (npm run build first). BENCH_LONG_REFERENCE=0 skips the slow
// reference runs (tiktoken on 200k letters and 64k CJK, about 1.5 min each; the old path on 64k CJK).
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

// Long pieces. Baseline: gpt-tokenizer as shipped (countTokens, the array merge on every piece: the old path of
// loadTokenizer). Reference: tiktoken WASM (Rust core, independent of both), exact counts compared. Both are
// quadratic on one long piece, so beyond what they finish in reasonable time they are extrapolated from the
// 10k/20k/40k runs (t ∝ n^k with k measured between 20k and 40k) and marked "extrapolated". Every count is a
// single first run on its text: gpt-tokenizer caches merged pieces, so a repetition would time a cache hit.
// Times are this process's CPU time (user + system; counting is single-threaded), which a shared machine
// inflates far less than wall time; the wall time of ours is printed beside it.
console.log('\n== long pieces (CPU time of this process; see the comment above)');
const LONG_REFERENCE = process.env.BENCH_LONG_REFERENCE !== '0';
const { get_encoding } = await import('tiktoken');
const seeded = (seed) => {
  let x = seed >>> 0;
  return (n) => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return Math.floor((x / 2 ** 32) * n);
  };
};
const rnd = seeded(7);
const letters = (n) => Array.from({ length: n }, () => String.fromCharCode(97 + rnd(26))).join('');
const cjk = (n) => Array.from({ length: n }, () => String.fromCharCode(0x4e00 + rnd(0x9fff - 0x4e00))).join('');
const blob = Buffer.from(Uint8Array.from({ length: 750_000 }, () => rnd(256))).toString('base64');
const id = () => Array.from({ length: 1 + rnd(3) }, () => String.fromCharCode(97 + rnd(26))).join('');
let minified = '';
while (minified.length < 1_000_000) {
  minified += [
    () => `function ${id()}(${id()},${id()}){return ${id()}.${id()}(${id()})||${rnd(1000)}}`,
    () => `var ${id()}=${id()}[${rnd(64)}]!==void 0?${id()}:"${id()}${id()}";`,
    () => `for(${id()}=0;${id()}<${id()}.length;${id()}++)${id()}+=${id()}<<${rnd(8)};`,
  ][rnd(3)]();
}
minified = minified.slice(0, 1_000_000);
const LETTERS = { 10_000: letters(10_000), 20_000: letters(20_000), 40_000: letters(40_000) };
const big = { letters200k: letters(200_000), letters1m: letters(1_000_000), cjk64k: cjk(64_000) };
const ms = (x) => (x >= 10_000 ? `${fmt(x / 1000, 1)} s` : `${fmt(x, x < 10 ? 2 : 0)} ms`);
const cpuTime = (fn) => {
  const c = process.cpuUsage();
  const s = performance.now();
  const r = fn();
  const wall = performance.now() - s;
  const d = process.cpuUsage(c);
  return { ms: (d.user + d.system) / 1000, wall, r };
};
const summary = [];
for (const encoding of ['o200k_base', 'cl100k_base']) {
  const ours = await tokens.loadTokenizer(encoding);
  const shipped = await import(`gpt-tokenizer/encoding/${encoding}`);
  const PLAIN = { disallowedSpecial: new Set() };
  const old = (t) => shipped.countTokens(t, PLAIN);
  const tk = get_encoding(encoding);
  const ref = (t) => tk.encode_ordinary(t).length;
  ours('warm up ' + letters(2000));
  old('warm up ' + letters(500));
  // Ordinary text (short pieces) takes gpt-tokenizer's own merge in both: the raw loops should match.
  const texts = audit.renderAudit(servers, 'json').texts;
  const liveOurs = [];
  const liveOld = [];
  let liveSame = true;
  for (let i = 0; i < REPS; i++) {
    let a = 0;
    let b = 0;
    liveOurs.push(
      time(() => {
        for (const t of texts) a += ours(t);
      }).ms,
    );
    liveOld.push(
      time(() => {
        for (const t of texts) b += old(t);
      }).ms,
    );
    liveSame &&= a === b;
  }
  console.log(
    `${encoding} LiveMCPBench texts (${texts.length}), raw loop: ours ${ms(best(liveOurs))} | gpt-tokenizer as shipped ${ms(best(liveOld))} | same total: ${liveSame}`,
  );
  const agree = [];
  const row = (name, o, b, r, note = '') => {
    const same = r.n === undefined ? 'not run' : r.n === o.n ? 'equal' : `DIFFERENT (${o.n} vs ${r.n})`;
    if (r.n !== undefined) agree.push(r.n === o.n);
    console.log(
      `${encoding} ${name.padEnd(22)} tokens ${String(o.n).padStart(7)} | ours ${ms(o.ms).padStart(8)} (wall ${ms(o.wall)}) | gpt-tokenizer as shipped ${(b.ms === undefined ? '—' : ms(b.ms) + (b.est ? ' (extrapolated)' : '')).padStart(20)} | tiktoken WASM ${(r.ms === undefined ? '—' : ms(r.ms) + (r.est ? ' (extrapolated)' : '')).padStart(20)} | vs tiktoken: ${same}${note}`,
    );
  };
  const measure = (fn, text) => {
    const t = cpuTime(() => fn(text));
    return { ms: t.ms, wall: t.wall, n: t.r };
  };
  // Letter runs the old path and tiktoken still finish: measured, and the exponent for the extrapolations.
  const fit = { old: {}, ref: {} };
  for (const [n, text] of Object.entries(LETTERS)) {
    const o = measure(ours, text);
    const b = measure(old, text);
    const r = measure(ref, text);
    fit.old[n] = b.ms;
    fit.ref[n] = r.ms;
    if (b.n !== o.n) agree.push(false);
    row(`letters ${Number(n) / 1000}k`, o, b, r, b.n === o.n ? '' : ` | OLD PATH DIFFERS (${b.n})`);
  }
  const kOld = Math.log2(fit.old[40_000] / fit.old[20_000]);
  const kRef = Math.log2(fit.ref[40_000] / fit.ref[20_000]);
  const extrapolate = (t40, k, n) => ({ ms: t40 * (n / 40_000) ** k, est: true });
  console.log(
    `${encoding} growth per doubling 20k → 40k letters: gpt-tokenizer as shipped ×${fmt(2 ** kOld, 2)} (n^${fmt(kOld, 2)}), tiktoken ×${fmt(2 ** kRef, 2)} (n^${fmt(kRef, 2)}); extrapolations below use n^2`,
  );
  {
    const o = measure(ours, big.letters200k);
    const r = LONG_REFERENCE ? measure(ref, big.letters200k) : extrapolate(fit.ref[40_000], 2, 200_000);
    row('letters 200k', o, extrapolate(fit.old[40_000], 2, 200_000), r);
    summary.push([encoding, 'letters 200k', o.ms]);
  }
  {
    const o = measure(ours, big.letters1m);
    row(
      'letters 1 MB (1 piece)',
      o,
      extrapolate(fit.old[40_000], 2, 1_000_000),
      extrapolate(fit.ref[40_000], 2, 1_000_000),
    );
    summary.push([encoding, 'letters 1 MB', o.ms]);
  }
  for (const [name, text] of [
    ['base64 blob 1 MB', blob],
    ['minified JS 1 MB', minified],
  ]) {
    const o = measure(ours, text);
    row(name, o, measure(old, text), measure(ref, text));
  }
  {
    const o = measure(ours, big.cjk64k);
    const b = LONG_REFERENCE ? measure(old, big.cjk64k) : {};
    const r = LONG_REFERENCE ? measure(ref, big.cjk64k) : {};
    if (b.n !== undefined && b.n !== o.n) agree.push(false);
    row('CJK 64k characters', o, b, r);
    summary.push([encoding, 'CJK 64k', o.ms]);
  }
  // The event loop is blocked only while one count runs: a timer due during the 1 MB count fires right after it.
  const fresh = letters(1_000_000);
  const due = performance.now();
  const late = await new Promise((resolve) => {
    setTimeout(() => resolve(performance.now() - due), 0);
    ours(fresh); // a new run: not in the merge cache
  });
  console.log(
    `${encoding} a 0 ms timer set before counting the 1 MB letter run fired after ${ms(late)} (the whole count; the old path: minutes)`,
  );
  console.log(`${encoding} exact agreement with tiktoken: ${agree.filter(Boolean).length}/${agree.length} cases`);
  tk.free();
}
console.log(
  `longest single count (one piece, ours): ${summary
    .sort((a, b) => b[2] - a[2])
    .slice(0, 3)
    .map(([e, n, t]) => `${n} ${e} ${ms(t)}`)
    .join(', ')}`,
);
