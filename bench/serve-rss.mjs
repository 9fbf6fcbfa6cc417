// bench:serve-rss — resident memory of `mcp-smart serve` after BENCH_RSS_CALLS calls (default 10,000), per build,
// in two set-ups, each beside a baseline in the same run:
//   demo       `--demo serve` (the four demo servers, auto mode: their 37 tools served directly); `echo` is called.
//   catalogue  `--demo --snapshot <servers-111 catalog> serve`: the 2,781-tool catalogue searchable beside the demo
//              servers (auto mode: the meta-tools); before each burst a find_tool with a new intent (each build's
//              answer must equal the first build's, byte for byte), then call_tool on everything.echo.
// The baseline is the everything demo server run directly, taking the same echo calls (what serve forwards to).
// Calls go in bursts of BENCH_RSS_BURST (default 100) concurrent requests. Learning is on (serve's default), into the
// scratch HOME. Reported: VmRSS after the calls (and a 1 s pause), the peak (VmHWM), and VmRSS again after
// BENCH_RSS_IDLE_S (default 40) idle seconds, read from /proc (Linux).
// Usage: node bench/serve-rss.mjs [label=folder-holding-bin/mcp-smart.js[@node-flag...] ...]  (default: this tree
// only); e.g. `small-young=.@--max-semi-space-size=2` runs this tree under node with that flag.
// BENCH_RSS_SETUPS=demo,catalogue picks the set-ups. All processes of a set-up run side by side, calls interleaved.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DATA, REPO } from './helpers/datasets.mjs';
import { startRaw } from './helpers/raw-stdio.mjs';
import { scratchEnv } from './helpers/scratch.mjs';

const CALLS = Number(process.env.BENCH_RSS_CALLS ?? 10_000);
const BURST = Number(process.env.BENCH_RSS_BURST ?? 100);
/** Idle seconds after the calls before RSS is read again (serve lets its tokenizer go after 30 s idle). */
const IDLE_S = Number(process.env.BENCH_RSS_IDLE_S ?? 40);
/** BENCH_RSS_HEAP=1: serve runs with bench/helpers/heap-probe.mjs preloaded; its live heap is read at the end. */
const HEAP = process.env.BENCH_RSS_HEAP === '1';
const PROBE = pathToFileURL(join(REPO, 'bench', 'helpers', 'heap-probe.mjs')).href;
const SETUPS = (process.env.BENCH_RSS_SETUPS ?? 'demo,catalogue').split(',');
const CATALOGUE = join(DATA, 'servers-111', 'catalog.snapshot.json');
/** find_tool intents for the catalogue set-up, one per burst in turn (`#`: the burst's number). */
const INTENTS = [
  'echo back message #',
  'search airbnb listings in city #',
  'create a github issue titled bug #',
  'send a slack message to channel #',
  'read the file notes-#.txt',
  'query the postgres table orders #',
  'find flights to paris on day #',
  'take a screenshot of page #',
  'add an entity named item # to the knowledge graph',
  'think step by step about problem #',
];
const builds = (process.argv.length > 2 ? process.argv.slice(2) : [`this=${REPO}`]).map((s) => {
  const at = s.indexOf('=');
  const [root, ...flags] = s.slice(at + 1).split('@');
  // Resolved here: each process runs in its own scratch folder, where a relative root would name nothing.
  return { label: s.slice(0, at), root: resolve(root), flags };
});
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-rss-'));
const kb = (pid, key) =>
  Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
const mb = (k) => `${(k / 1024).toFixed(0)} MB`;
const require = createRequire(import.meta.url);
const everythingPkg = require.resolve('@modelcontextprotocol/server-everything/package.json');
const everythingBin = (() => {
  const bin = JSON.parse(readFileSync(everythingPkg, 'utf8')).bin;
  return join(dirname(everythingPkg), typeof bin === 'string' ? bin : Object.values(bin)[0]);
})();

/** Each mcp-smart process's heap used + external after a forced GC (bench/helpers/heap-probe.mjs), as text. */
async function liveHeap(rows) {
  const out = [];
  for (const [name, c] of rows) {
    if (name.startsWith('baseline')) {
      out.push(undefined);
      continue;
    }
    const file = c.probeFile;
    process.kill(c.child.pid, 'SIGUSR2');
    let line;
    for (let waited = 0; !line && waited < 10_000; waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
      line = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').at(-1) : undefined;
    }
    const m = line ? JSON.parse(line) : undefined;
    out.push(m ? `${mb(m.heapUsed / 1024)} + ${mb(m.external / 1024)}` : undefined);
  }
  return out;
}

function check(answer, what) {
  if (answer.error || answer.result?.isError) throw new Error(`${what} failed: ${JSON.stringify(answer)}`);
  return answer;
}

/** Starts every process of `setup`; returns [name, client, call(i, round)] rows. */
async function start(setup) {
  const rows = [];
  const home = mkdtempSync(join(dir, `${setup}-`));
  rows.push([
    'baseline: everything server direct',
    startRaw(process.execPath, [everythingBin, 'stdio'], { env: scratchEnv(home), cwd: home }),
    (c, i) => c.request('tools/call', { name: 'echo', arguments: { message: `m${i}` } }),
  ]);
  for (const b of builds) {
    const own = mkdtempSync(join(home, `${b.label}-`));
    const args = [...b.flags, join(b.root, 'bin', 'mcp-smart.js'), '--demo'];
    if (setup === 'catalogue') args.push('--snapshot', CATALOGUE);
    const call =
      setup === 'demo'
        ? (c, i) => c.request('tools/call', { name: 'echo', arguments: { message: `m${i}` } })
        : (c, i) =>
            c.request('tools/call', {
              name: 'call_tool',
              arguments: { name: 'everything.echo', arguments: { message: `m${i}` } },
            });
    const probeFile = join(own, 'heap.jsonl');
    const client = startRaw(process.execPath, [...args, 'serve'], {
      env: scratchEnv(own, {
        TMPDIR: own,
        ...(HEAP ? { NODE_OPTIONS: `--expose-gc --import ${PROBE}`, HEAP_PROBE_OUT: probeFile } : {}),
      }),
      cwd: own,
    });
    rows.push([`mcp-smart ${b.label}`, Object.assign(client, { probeFile }), call]);
  }
  for (const [, c] of rows) {
    check(await c.open(), 'initialize');
    check(await c.request('tools/list', {}), 'tools/list');
  }
  return rows;
}

try {
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(
    `serve RSS after calls — ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, Node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z; ${CALLS} calls each in bursts of ${BURST}; load ${load()}`,
  );
  for (const setup of SETUPS) {
    const t0 = performance.now();
    const rows = await start(setup);
    const startRss = rows.map(([, c]) => kb(c.child.pid, 'VmRSS'));
    const finds = [];
    for (let done = 0, round = 0; done < CALLS; done += BURST, round++)
      for (const [name, c, call] of rows) {
        if (setup === 'catalogue' && !name.startsWith('baseline')) {
          const intent = INTENTS[round % INTENTS.length].replace('#', String(round));
          const found = check(
            await c.request('tools/call', { name: 'find_tool', arguments: { intent } }),
            `${name} find_tool`,
          );
          // Every build must answer each find_tool exactly as the first build did.
          const text = found.result.content[0].text;
          const first = (finds[round] ??= text);
          if (text !== first)
            throw new Error(`${name}: find_tool "${intent}" answered differently:\n${text}\n${first}`);
        }
        const n = Math.min(BURST, CALLS - done);
        const replies = await Promise.all(Array.from({ length: n }, (_, i) => call(c, done + i)));
        for (const a of replies) check(a, `${name} call`);
      }
    await new Promise((r) => setTimeout(r, 1000));
    const after = rows.map(([, c]) => kb(c.child.pid, 'VmRSS'));
    const secs = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    console.log(`\n${setup} (${secs.toFixed(0)} s, load after ${load()})\n`);
    console.log(
      `| process | RSS at start | RSS 1 s after the calls | peak RSS (VmHWM) | RSS ${IDLE_S} s later |${HEAP ? ' then live: heap used + external after a forced GC |' : ''}`,
    );
    console.log(`| --- | ---: | ---: | ---: | ---: |${HEAP ? ' ---: |' : ''}`);
    const idle = rows.map(([, c]) => [kb(c.child.pid, 'VmRSS'), kb(c.child.pid, 'VmHWM')]);
    const live = HEAP ? await liveHeap(rows) : [];
    rows.forEach(([name], i) =>
      console.log(
        `| ${name} | ${mb(startRss[i])} | ${mb(after[i])} | ${mb(idle[i][1])} | ${mb(idle[i][0])} |${HEAP ? ` ${live[i] ?? '–'} |` : ''}`,
      ),
    );
    for (const [, c] of rows) await c.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
