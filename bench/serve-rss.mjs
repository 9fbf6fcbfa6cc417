// bench:serve-rss — memory of `mcp-smart serve` under load with learning on (a file store and --record), beside the
// same run with --no-learn (the baseline): BENCH_RSS_CALLS calls (default 20,000) in bursts of 500 through call_tool,
// a find_tool with a new intent before each burst, against the tiny fixture server. Reported: serve's resident memory
// (VmRSS) after the load and its peak (VmHWM), read from /proc (Linux), and the heap after a forced GC is not
// available from outside, so RSS is what counts. Bursts alternate learning on and off processes started side by side.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './helpers/datasets.mjs';
import { startRaw } from './helpers/raw-stdio.mjs';
import { scratchEnv, writeTinyConfig } from './helpers/scratch.mjs';

const CALLS = Number(process.env.BENCH_RSS_CALLS ?? 20_000);
const BURST = Number(process.env.BENCH_RSS_BURST ?? 500);
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-rss-'));
const env = scratchEnv(dir);
const kb = (pid, key) =>
  Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
const mb = (k) => `${(k / 1024).toFixed(0)} MB`;

try {
  const config = join(dir, 'tiny.json');
  writeTinyConfig(config);
  const base = [join(REPO, 'bin', 'mcp-smart.js'), '--config', config, 'serve', '--mode', 'meta'];
  const runs = {
    learning: startRaw(
      process.execPath,
      [...base, '--store', join(dir, 'usage.json'), '--record', join(dir, 'cases.jsonl')],
      { env, cwd: dir },
    ),
    'no-learn': startRaw(process.execPath, [...base, '--no-learn'], { env, cwd: dir }),
  };
  for (const c of Object.values(runs)) await c.open();
  const start = Object.fromEntries(Object.entries(runs).map(([k, c]) => [k, kb(c.child.pid, 'VmRSS')]));
  const t0 = performance.now();
  for (let done = 0, round = 0; done < CALLS; done += BURST, round++)
    for (const c of Object.values(runs)) {
      const f = await c.request('tools/call', {
        name: 'find_tool',
        arguments: { intent: `search my notes for topic ${round}` },
      });
      const id = JSON.parse(f.result.content[0].text).results[0].id;
      const burst = Array.from({ length: BURST }, (_, i) =>
        c.request('tools/call', { name: 'call_tool', arguments: { name: id, arguments: { query: `q${round}-${i}` } } }),
      );
      const answers = await Promise.all(burst);
      if (answers.some((a) => a.error || a.result?.isError))
        throw new Error(`a call failed: ${JSON.stringify(answers.find((a) => a.error || a.result?.isError))}`);
    }
  const secs = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 1000));
  console.log(
    `serve RSS under load — ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; ${CALLS} calls each in bursts of ${BURST}, ${secs.toFixed(0)} s`,
  );
  console.log('| serve | RSS at start | RSS after the calls | peak RSS (VmHWM) |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [name, c] of Object.entries(runs))
    console.log(`| ${name} | ${mb(start[name])} | ${mb(kb(c.child.pid, 'VmRSS'))} | ${mb(kb(c.child.pid, 'VmHWM'))} |`);
  for (const c of Object.values(runs)) await c.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
