// bench:team-store — the team load on each usage store, measured in the same run: 4 `serve` processes (a fixture
// backend behind each) forwarding BENCH_TEAM_CALLS calls each (default 500) while `replay --learn` learns 300
// labelled intents into the same store. For the file store (default), a PostgreSQL store (a real server started
// here, test/helpers/postgres-server.mjs) and no store (--no-learn, the baseline): per-call latency seen by the
// client (p50/p95), the time until every serve has exited with its learning written, and how many of the calls
// and learned cases the store holds afterwards (lost = made - counted).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PG_PASSWORD, startPostgresIn } from '../test/helpers/postgres-server.mjs';
import { REPO } from './helpers/datasets.mjs';
import { writeTinyConfig } from './helpers/scratch.mjs';

const BIN = join(REPO, 'bin', 'mcp-smart.js');
const CALLS = Number(process.env.BENCH_TEAM_CALLS ?? 500);
const SERVES = 4;
const TOOLS = ['echo', 'create_note', 'search_notes'];
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-team-'));
const env = {
  ...process.env,
  NO_COLOR: '1',
  HOME: dir,
  MCP_SMART_CACHE_DIR: join(dir, 'cache'),
  PGPASSWORD: PG_PASSWORD,
};
const pct = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};
const config = join(dir, 'servers.json');
writeTinyConfig(config);
const intents = join(dir, 'intents.jsonl');
writeFileSync(
  intents,
  Array.from({ length: 300 }, (_, i) =>
    JSON.stringify({ intent: `team task ${i % 37}`, expected: [`tiny.${TOOLS[i % 3]}`] }),
  ).join('\n') + '\n',
);

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

async function serveLoad(storeArgs) {
  const clients = await Promise.all(
    Array.from({ length: SERVES }, async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--config', config, 'serve', '--mode', 'tools', ...storeArgs],
        env,
        stderr: 'ignore',
      });
      const client = new Client({ name: 'bench-team', version: '1' });
      await client.connect(transport);
      const { tools } = await client.listTools();
      const names = TOOLS.map((t) => tools.find((x) => x.name.endsWith(t)).name);
      return { client, transport, names };
    }),
  );
  const lat = [];
  const t0 = performance.now();
  const learning =
    storeArgs[0] === '--no-learn'
      ? Promise.resolve({ code: 0 })
      : run(['--config', config, 'replay', intents, '--learn', ...storeArgs, '--ttl-days', '0']);
  await Promise.all(
    clients.map(async ({ client, names }) => {
      for (let i = 0; i < CALLS; i++) {
        const s = performance.now();
        await client.callTool({ name: names[i % 3], arguments: i % 3 === 0 ? { message: `m${i}` } : {} });
        lat.push(performance.now() - s);
      }
    }),
  );
  const calls = performance.now() - t0;
  const pids = clients.map((c) => c.transport.pid);
  await Promise.all(clients.map((c) => c.client.close()));
  for (const pid of pids)
    for (;;) {
      try {
        process.kill(pid, 0);
        await new Promise((r) => setTimeout(r, 20));
      } catch {
        break;
      }
    }
  const learned = await learning;
  return { lat, calls, done: performance.now() - t0, replayCode: learned.code };
}

async function counted(storeArgs) {
  const file = join(dir, `export-${Math.random().toString(36).slice(2)}.json`);
  await run(['store', 'export', file, ...storeArgs]);
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  return TOOLS.reduce((n, t) => n + (doc.tools[`tiny.${t}`]?.success ?? 0), 0);
}

const lines = [];
const say = (l) => {
  lines.push(l);
  console.log(l);
};
let pg;
try {
  pg = await startPostgresIn(mkdtempSync(join(tmpdir(), 'mcp-smart-bench-pg-')));
  const made = SERVES * CALLS + 300;
  const rounds = Number(process.env.BENCH_TEAM_ROUNDS ?? 2);
  say(
    `${SERVES} serve × ${CALLS} forwarded calls + replay --learn of 300 cases at once (${made} updates per store); ${rounds} rounds, order rotated, a fresh store each`,
  );
  say(
    '| round | store | per call p50 | per call p95 | calls done | all written, serve exited | updates counted | lost |',
  );
  say('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (let round = 1; round <= rounds; round++) {
    const url = await pg.createDatabase(`team${round}`);
    const cases = [
      ['no store (--no-learn, baseline)', ['--no-learn']],
      ['file store', ['--store', join(dir, `usage-${round}.json`)]],
      ['PostgreSQL store', ['--store', url]],
    ];
    for (let k = 0; k < cases.length; k++) {
      const [label, args] = cases[(k + round - 1) % cases.length];
      const r = await serveLoad(args);
      const got = args[0] === '--no-learn' ? undefined : await counted(args);
      say(
        `| ${round} | ${label} | ${pct(r.lat, 0.5).toFixed(2)} ms | ${pct(r.lat, 0.95).toFixed(2)} ms | ${(r.calls / 1000).toFixed(1)} s | ${(r.done / 1000).toFixed(1)} s | ${got ?? '—'} | ${got === undefined ? '—' : made - got} |`,
      );
    }
  }
} finally {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
}
