// bench:model — `discover --model use-lite` on the 2,781 tools of servers-111 beside the default engine, in one
// run: the first run (a fresh cache: every tool embedded), then BENCH_MODEL_ROUNDS rounds (default 5) of the warm
// run on the same intent (index and intent vector cached: the model is not loaded), the warm run on a new intent
// (the model loaded to embed it) and the default engine (its index cache warm), interleaved; medians. Runs against
// dist/ (npm run build first); needs the optional @energetic-ai packages.
// BENCH_MODEL=<dir>: the same runs with a local ONNX folder (`--model <dir>`, onnxruntime-web) instead of use-lite.
// BENCH_MODEL_SEED=1: no first run; the cache is seeded instead with stand-in vectors of use-lite's size (512, random)
// through the same code (app/services/model-index.ts), so the warm runs read files of the real sizes (their rankings mean
// nothing): for a machine where the first run takes too long to wait for.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO, DATA } from './helpers/datasets.mjs';
import { readFileSync } from 'node:fs';

const ROUNDS = Number(process.env.BENCH_MODEL_ROUNDS ?? 5);
const MODEL = process.env.BENCH_MODEL ? resolve(process.env.BENCH_MODEL) : 'use-lite';
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-model-'));
const env = {
  ...process.env,
  NO_COLOR: '1',
  HOME: dir,
  MCP_SMART_CACHE_DIR: join(dir, 'cache'),
  MCP_SMART_DATA_DIR: join(dir, 'data'),
};
const snapshot = join(DATA, 'servers-111', 'catalog.snapshot.json');
const run = (intent, model) => {
  const args = [join(REPO, 'bin', 'mcp-smart.js'), '--snapshot', snapshot, 'discover', intent];
  if (model) args.push('--model', model, '--debug');
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: dir, env, timeout: 1_800_000 });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}: ${String(r.stderr).split('\n')[0]}`);
  const said = /\S+: index (built|read)[^\n]*/.exec(String(r.stderr));
  if (said) seen.add(said[0]);
  return performance.now() - t;
};
const seen = new Set();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const INTENT = 'what meetings do I have tomorrow';
try {
  console.log(`node ${process.version}; ${new Date().toISOString()}; ${ROUNDS} rounds`);
  run(INTENT); // the default engine's index cache written
  if (process.env.BENCH_MODEL_SEED === '1') {
    const { modelIndex } = await import('../dist/app/services/model-index.js');
    const { toolRefsFromSnapshots } = await import('../dist/core/discover/engine.js');
    const tools = toolRefsFromSnapshots(JSON.parse(readFileSync(snapshot, 'utf8')).servers);
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const embed = async (texts) => texts.map(() => Float32Array.from({ length: 512 }, random));
    const noop = { step: () => {}, done: () => {} };
    const opts = { model: 'use-lite', cwd: dir, cacheDir: env.MCP_SMART_CACHE_DIR, build: {}, progress: noop };
    const seeded = await modelIndex(tools, { ...opts, load: async () => embed });
    await seeded.embedIntents([INTENT], true);
    console.log(`  cache seeded with stand-in vectors (${tools.length} tools × 512)`);
  } else {
    const cold = run(INTENT, MODEL);
    console.log(`  ${MODEL} first run (fresh cache, 2,781 tools embedded): ${(cold / 1000).toFixed(1)} s`);
  }
  const times = { default: [], warm: [], newIntent: [] };
  for (let i = 0; i < ROUNDS; i++) {
    times.default.push(run(INTENT));
    times.warm.push(run(INTENT, MODEL));
    times.newIntent.push(run(`which calendar events are on day ${i + 1}`, MODEL));
  }
  const d = median(times.default);
  for (const [name, xs] of Object.entries(times))
    console.log(
      `  ${name.padEnd(10)} median ${median(xs).toFixed(0).padStart(6)} ms  (${(median(xs) / d).toFixed(2)}× default; ${xs.map((x) => x.toFixed(0)).join(' ')})`,
    );
  console.log(`  the runs said (--debug): ${[...seen].join('; ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
