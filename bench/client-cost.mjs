// bench/client-cost.mjs — the client library's own work per find_tool answer, apart from serve's (issue 40 item 2:
// find_tool's round trip for an SDK v1 and an SDK v2 client). serve writes the same bytes to both (the lines on the
// wire compare equal); what differs is the client. This records find_tool answers from this tree's serve (meta
// mode, the 2,781 tools of servers-111, the first BENCH_CLIENT_INTENTS intents, default 50), then replays them from
// a peer that does no work (bench/helpers/fixed-answer-server.mjs) to a 2025 client on SDK v1
// (`@modelcontextprotocol/sdk`) and on SDK v2 (`@modelcontextprotocol/client`, legacy negotiation), interleaved in
// rounds of 50 calls: the client process's CPU per call (process.cpuUsage; only one call is in flight at a time)
// and the round trip's wall p50, for find_tool's answer and for a 2-byte answer ("ok": the per-call floor).
// Then the round trip split where it is spent: find_tool on this tree's serve behind a relay that notes when each
// chunk passes (bench/helpers/timing-relay.mjs), SDK v1 and v2 clients interleaved in rounds of 20 over the
// BENCH_CLIENT_FINDS intents (default 400): serve's side (request in → answer out) and the client's (answer out →
// its next request in: the client's receipt of the answer, the bench loop, its sending of the next call).
// BENCH_CLIENT_CALLS (default 4,000, a multiple of 100) calls per row.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { DATA, REPO, loadServers111 } from './helpers/datasets.mjs';
import { scratchEnv } from './helpers/scratch.mjs';

const CALLS = Number(process.env.BENCH_CLIENT_CALLS ?? 4000);
const INTENTS = Number(process.env.BENCH_CLIENT_INTENTS ?? 50);
const FINDS = Number(process.env.BENCH_CLIENT_FINDS ?? 400);
const ROUND = 50;
const LIBS = {
  'SDK v1': [() => new ClientV1({ name: 'bench-client-cost', version: '1' }), (o) => new StdioV1(o)],
  'SDK v2': [
    () => new ClientV2({ name: 'bench-client-cost', version: '1' }, { versionNegotiation: { mode: 'legacy' } }),
    (o) => new StdioV2(o),
  ],
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const signed = (x) => `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(0)}`;
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const work = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-client-cost-'));
const clients = [];
try {
  const env = scratchEnv(work);
  // find_tool's answers as this tree's serve writes them.
  const intents = [
    ...loadServers111('servers-111-questions.jsonl').cases,
    ...loadServers111('servers-111-commands.jsonl').cases,
  ].map((c) => c.intent);
  const allIntents = intents.slice();
  intents.splice(INTENTS);
  const snapshot = join(DATA, 'servers-111', 'catalog.snapshot.json');
  const recorder = new ClientV1({ name: 'bench-client-cost', version: '1' });
  const bin = join(REPO, 'bin', 'mcp-smart.js');
  const serveArgs = [bin, '--snapshot', snapshot, 'serve', '--mode', 'meta', '--no-learn'];
  await recorder.connect(new StdioV1({ command: process.execPath, args: serveArgs, env, stderr: 'ignore' }));
  const texts = [];
  for (const intent of intents) {
    const r = await recorder.callTool({ name: 'find_tool', arguments: { intent } });
    texts.push(r.content[0].text);
  }
  await recorder.close();
  const answers = join(work, 'answers.json');
  writeFileSync(answers, JSON.stringify(texts));
  const bytes = texts.map((t) => Buffer.byteLength(JSON.stringify({ content: [{ type: 'text', text: t }] })));
  const peer = join(REPO, 'bench', 'helpers', 'fixed-answer-server.mjs');
  for (const [lib, [client, stdio]] of Object.entries(LIBS)) {
    const c = client();
    await c.connect(stdio({ command: process.execPath, args: [peer], env: { ...env, FIXED_ANSWERS: answers } }));
    clients.push(c);
    for (const tool of ['find', 'small']) clients.push({ lib, tool, c, cpu: 0, times: [] });
  }
  const rows = clients.filter((x) => x.lib);
  console.log(`${new Date().toISOString()}; node ${process.version}; load at start ${load()}; ${CALLS} calls per row`);
  for (const x of rows) for (let i = 0; i < 200; i++) await x.c.callTool({ name: x.tool, arguments: {} });
  for (let round = 0; round < CALLS / ROUND; round++)
    for (const x of round % 2 === 0 ? rows : [...rows].reverse()) {
      const before = process.cpuUsage();
      for (let i = 0; i < ROUND; i++) {
        const t = performance.now();
        await x.c.callTool({ name: x.tool, arguments: {} });
        x.times.push(performance.now() - t);
      }
      const d = process.cpuUsage(before);
      x.cpu += d.user + d.system;
    }
  const cpuOf = (x) => x.cpu / 1000 / x.times.length;
  const of = (lib, tool) => rows.find((x) => x.lib === lib && x.tool === tool);
  console.log(`load after: ${load()}; find_tool answers of ${INTENTS} intents, ${p50(bytes)} bytes p50 (result)`);
  console.log('');
  console.log('| client | answer | client CPU per call | wall p50 | CPU over the "ok" answer |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const x of rows) {
    const floor = cpuOf(of(x.lib, 'small'));
    const what = x.tool === 'find' ? 'find_tool answer' : '"ok"';
    console.log(
      `| ${x.lib} | ${what} | ${(cpuOf(x) * 1000).toFixed(0)} µs | ${p50(x.times).toFixed(3)} ms | ${x.tool === 'find' ? `${signed((cpuOf(x) - floor) * 1000)} µs` : '—'} |`,
    );
  }
  const gap = (tool) => signed((cpuOf(of('SDK v2', tool)) - cpuOf(of('SDK v1', tool))) * 1000);
  console.log('');
  console.log(`SDK v2 − SDK v1 client CPU per call: find_tool answer ${gap('find')} µs, "ok" ${gap('small')} µs`);
  await Promise.all(clients.splice(0).map((c) => (c.lib ? undefined : c.close().catch(() => undefined))));
  await split({ env, serveArgs, work, intents: allIntents });
} finally {
  await Promise.all(clients.filter((c) => !c.lib).map((c) => c.close().catch(() => undefined)));
  rmSync(work, { recursive: true, force: true });
}

/** find_tool's round trip per client library, and its split at a relay between client and serve. */
async function split({ env, serveArgs, work, intents }) {
  const relay = join(REPO, 'bench', 'helpers', 'timing-relay.mjs');
  const conns = [];
  try {
    for (const [lib, [client, stdio]] of Object.entries(LIBS)) {
      const log = join(work, `relay-${conns.length}.json`);
      const c = client();
      const args = [relay, ...serveArgs];
      await c.connect(stdio({ command: process.execPath, args, env: { ...env, RELAY_LOG: log }, stderr: 'ignore' }));
      conns.push({ lib, c, log, times: [] });
    }
    const find = (x, i) => x.c.callTool({ name: 'find_tool', arguments: { intent: intents[i % intents.length] } });
    for (const x of conns) for (let i = 0; i < intents.length; i++) await find(x, i);
    const mark = conns.map(() => 0);
    for (let round = 0; round < FINDS / 20; round++)
      for (const x of round % 2 === 0 ? conns : [...conns].reverse())
        for (let i = round * 20; i < (round + 1) * 20; i++) {
          const t = performance.now();
          await find(x, i);
          x.times.push(performance.now() - t);
        }
    for (const [i, x] of conns.entries()) {
      // The notes of the warm-up (initialize, initialized, one find per intent) are left out.
      mark[i] = 3 + intents.length * 2;
      await x.c.close();
    }
    await new Promise((r) => setTimeout(r, 300));
    console.log('');
    console.log(`find_tool on serve behind a timing relay, ${FINDS} intents per client, interleaved (load ${load()}):`);
    console.log('');
    console.log(
      "| client | round trip p50 | serve's side p50 (request in → answer out) | the client's side p50 (answer out → next request in) |",
    );
    console.log('| --- | ---: | ---: | ---: |');
    for (const [i, x] of conns.entries()) {
      const notes = JSON.parse(readFileSync(x.log, 'utf8')).slice(mark[i]);
      const serve = [];
      const client = [];
      for (let j = 0; j + 1 < notes.length; j++) {
        const [a, b] = [notes[j], notes[j + 1]];
        if (a[0] === 'in' && b[0] === 'out') serve.push(b[1] - a[1]);
        if (a[0] === 'out' && b[0] === 'in') client.push(b[1] - a[1]);
      }
      console.log(
        `| ${x.lib} | ${p50(x.times).toFixed(2)} ms | ${(p50(serve) / 1000).toFixed(2)} ms | ${(p50(client) / 1000).toFixed(2)} ms |`,
      );
    }
  } finally {
    await Promise.all(conns.map((x) => x.c.close().catch(() => undefined)));
  }
}
