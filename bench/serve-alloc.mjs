// What one forwarded call costs serve in memory allocated — a measure the shared machine's noise does not move,
// unlike its latency — for this build and others, per client era. serve (tools mode, --no-learn, the SDK v2
// fixture `modern-server.mjs --legacy serve` behind) is run unbundled under bench/helpers/serve-profiled.mjs;
// after WARM echo calls, exactly CALLS more are bracketed, and V8's sampling heap profiler (collected objects
// included) gives bytes allocated per call, by package and by function of ours. (No CPU figure: the sampler itself
// costs CPU; bench/serve.mjs part 2 times the calls.)
// Usage: node bench/serve-alloc.mjs [label=path/to/dist ...]   (default: this build's dist only)
// A build from before 2026-07-28 support (SDK v1) is measured with the 2025 client only.
// BENCH_ALLOC_CALLS (default 4000) and BENCH_ALLOC_WARM (default 3000) scale it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { REPO } from './helpers/datasets.mjs';

const CALLS = Number(process.env.BENCH_ALLOC_CALLS ?? 4000);
const WARM = Number(process.env.BENCH_ALLOC_WARM ?? 3000);
const builds = (process.argv.length > 2 ? process.argv.slice(2) : [`this=${join(REPO, 'dist')}`]).map((s) => {
  const at = s.indexOf('=');
  return { label: s.slice(0, at), dist: s.slice(at + 1) };
});
const ERAS = [
  ['2025-11-25', { mode: 'legacy' }],
  ['2026-07-28', { mode: { pin: '2026-07-28' } }],
];
const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-alloc-'));
const config = join(dir, 'modern.json');
const backend = [join(REPO, 'fixtures', 'servers', 'modern-server.mjs'), '--legacy', 'serve'];
writeFileSync(config, JSON.stringify({ servers: { m: { command: process.execPath, args: backend } } }));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Whose code allocated: zod, the SDK packages, other dependencies, node, ours (a build's dist), or V8's own. */
function owner(url) {
  if (url.includes('/zod/')) return 'zod';
  const sdk = /@modelcontextprotocol\/(\w+)/.exec(url);
  if (sdk) return `sdk ${sdk[1]}`;
  if (url.includes('node_modules')) return 'other packages';
  if (url.includes('/dist/')) return 'ours';
  return url.startsWith('node:') ? 'node' : 'V8 / generated code';
}

function summarize(profile) {
  const byOwner = new Map();
  const ours = new Map();
  const walk = (node) => {
    const { url, functionName, lineNumber } = node.callFrame;
    const who = owner(url);
    byOwner.set(who, (byOwner.get(who) ?? 0) + node.selfSize);
    if (who === 'ours') {
      const key = `${functionName || '(anonymous)'} ${url.replace(/.*\/dist\//, '')}:${lineNumber + 1}`;
      ours.set(key, (ours.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(profile.head);
  return { byOwner, ours };
}

async function measure(build, negotiation, era) {
  const out = join(dir, `${build.label}-${era}.json`);
  const env = { ...process.env, HOME: dir, NO_COLOR: '1', WIRE_DIST: build.dist, WIRE_PROFILE_OUT: out };
  const args = [join(REPO, 'bench', 'helpers', 'serve-profiled.mjs'), '-c', config, 'serve', '--mode', 'tools'];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...args, '--no-learn'],
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-alloc', version: '1' }, { versionNegotiation: negotiation });
  try {
    await client.connect(transport);
    const call = async (i) => {
      const r = await client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
      if (r.isError) throw new Error(`echo failed: ${JSON.stringify(r.content)}`);
    };
    await call(0);
    for (let i = 1; i < WARM; i++) await call(i);
    process.kill(transport.pid, 'SIGUSR2');
    await sleep(200);
    for (let i = 0; i < CALLS; i++) await call(i);
    process.kill(transport.pid, 'SIGUSR2');
    for (let waited = 0; waited < 10_000; waited += 100) {
      await sleep(100);
      try {
        return JSON.parse(readFileSync(out, 'utf8'));
      } catch {
        // not written yet
      }
    }
    throw new Error(`${build.label}: no profile written`);
  } finally {
    await client.close();
  }
}

try {
  console.log(
    `| build | client | bytes allocated per call | of which ours | SDK | zod | code V8 generated (zod's compiled parsers) |`,
  );
  console.log(`| --- | --- | ---: | ---: | ---: | ---: | ---: |`);
  const details = [];
  for (const [era, negotiation] of ERAS)
    for (const build of builds) {
      const r = await measure(build, negotiation, era).catch((e) =>
        era === '2025-11-25' ? Promise.reject(e) : undefined,
      );
      if (!r) continue; // a build that cannot serve this era
      if (r.error) throw new Error(`${build.label}: ${r.error}`);
      const { byOwner, ours } = summarize(r.profile);
      const total = [...byOwner.values()].reduce((a, b) => a + b, 0);
      const sdk = [...byOwner].filter(([k]) => k.startsWith('sdk')).reduce((a, [, b]) => a + b, 0);
      const kb = (b) => `${(b / CALLS / 1024).toFixed(1)} KB`;
      console.log(
        `| ${build.label} | ${era} | ${kb(total)} | ${kb(byOwner.get('ours') ?? 0)} | ${kb(sdk)} | ${kb(byOwner.get('zod') ?? 0)} | ${kb(byOwner.get('V8 / generated code') ?? 0)} |`,
      );
      const top = [...ours].sort((a, b) => b[1] - a[1]).slice(0, 6);
      details.push(`${build.label}, ${era}: ${top.map(([k, b]) => `${k} ${(b / CALLS).toFixed(0)} B`).join('; ')}`);
    }
  console.log(`\nOurs, by function (bytes per call; V8 counts what it inlined in its caller):`);
  for (const d of details) console.log(`- ${d}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
