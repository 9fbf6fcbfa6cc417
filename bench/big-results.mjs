// bench:big-results — a tool result of 5 to 60 MB through `mcp-smart serve` (stdio), beside the same call on a direct
// connection to the same server in the same run (the baseline). Both are read by the same bare client (helpers/
// raw-stdio.mjs, linear), which pings every 50 ms during the call: reported are the call's time, the time per MB, and
// the slowest ping answer. Linear reading means serve's time per MB stays flat as the result grows.
// BENCH_BIG_SIZES (default "5,20,40,60") and BENCH_BIG_ROUNDS (default 3; medians are reported) scale it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './helpers/datasets.mjs';
import { scratchEnv } from './helpers/scratch.mjs';
import { startRaw } from './helpers/raw-stdio.mjs';

const FIXTURE = join(REPO, 'fixtures', 'servers', 'misbehaving', 'big-results.mjs');
const sizes = (process.env.BENCH_BIG_SIZES ?? '5,20,40,60').split(',').map(Number);
const rounds = Number(process.env.BENCH_BIG_ROUNDS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-big-'));
const env = scratchEnv(dir);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const config = join(dir, 'big.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { big: { command: process.execPath, args: [FIXTURE] } } }));
  const routes = {
    direct: [process.execPath, [FIXTURE]],
    serve: [
      process.execPath,
      [
        join(REPO, 'bin', 'mcp-smart.js'),
        '--config',
        config,
        'serve',
        '--mode',
        'tools',
        '--no-learn',
        '--call-timeout',
        '600000',
      ],
    ],
  };
  const clients = {};
  for (const [name, [command, args]] of Object.entries(routes)) {
    clients[name] = startRaw(command, args, { env, cwd: dir });
    await clients[name].open();
    await clients[name].request('tools/list', {});
  }
  const rows = [];
  for (const mb of sizes) {
    const got = { direct: { ms: [], ping: [] }, serve: { ms: [], ping: [] } };
    // Interleaved: each round measures the baseline and serve back to back.
    for (let round = 0; round < rounds; round++)
      for (const name of ['direct', 'serve']) {
        const c = clients[name];
        const pinger = c.pinger(50);
        const t = performance.now();
        const r = await c.request('tools/call', { name: 'big', arguments: { mb } });
        got[name].ms.push(performance.now() - t);
        got[name].ping.push((await pinger.stop()).worstMs);
        if (r.error || r.bytes < mb * 1024 * 1024) throw new Error(`${name} ${mb} MB: ${JSON.stringify(r.error)}`);
      }
    const d = median(got.direct.ms);
    const s = median(got.serve.ms);
    rows.push(
      `| ${mb} | ${d.toFixed(0)} | ${s.toFixed(0)} | ${(s / mb).toFixed(1)} | ${(s / d).toFixed(1)}× | ${median(got.direct.ping).toFixed(0)} | ${median(got.serve.ping).toFixed(0)} |`,
    );
  }
  for (const c of Object.values(clients)) await c.close();
  console.log(
    `big results through serve — ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, median of ${rounds}`,
  );
  console.log(
    '| MB | direct ms | serve ms | serve ms/MB | serve ÷ direct | slowest ping direct ms | slowest ping serve ms |',
  );
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) console.log(r);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
