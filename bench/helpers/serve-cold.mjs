// bench:cold, the cold serve case (issue 40.1): `serve` started in a fresh HOME (no tool-list, count or index cache)
// in front of 4 and 50 fixture servers, timed from spawn to its first tools/list answer over raw JSON-RPC on stdio
// (initialize → initialized → tools/list, no client library on the clock), each round interleaved with `node -e ""`
// and, for tools mode, with one of the same servers spawned and listed directly (the slowest server's own start).
// Goals: meta mode ≤ 4× node with 4 and 50 servers; tools mode without a cache ≤ the server's own start + 20 %.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INITIALIZE } from './raw-stdio.mjs';

const pct = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)];

/** Spawn → the answer to request id `last` (after initialize, initialized and tools/list); then stdin is closed. */
function toFirstList(command, args, env, cwd) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
    const send = (m) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
    let buf = '';
    let wall;
    child.stdout.on('data', (d) => {
      buf += String(d);
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const m = JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
        if (m.id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list' });
        } else if (m.id === 2 && wall === undefined) {
          wall = performance.now() - t0;
          if (!m.result?.tools?.length) reject(new Error(`no tools listed: ${JSON.stringify(m).slice(0, 200)}`));
          child.stdin.end();
        }
      }
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('exit', () => {
      clearTimeout(killer);
      if (wall === undefined) reject(new Error(`${args.join(' ')} ended before answering tools/list`));
      else resolve(wall);
    });
    child.once('error', reject);
    send(INITIALIZE);
  });
}

export async function serveCold({ REPO, rounds = 7, counts = [4, 50] }, say) {
  const BIN = join(REPO, 'bin', 'mcp-smart.js');
  const server = [
    join(REPO, 'fixtures', 'servers', 'catalog-server.mjs'),
    join(REPO, 'fixtures', 'servers', 'catalogs', 'tiny.json'),
  ];
  const base = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-serve-cold-'));
  const config = (n) => {
    const file = join(base, `servers-${n}.json`);
    const servers = Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`s${i}`, { command: process.execPath, args: server }]),
    );
    writeFileSync(file, JSON.stringify({ servers }));
    return file;
  };
  /** A fresh HOME for one run: nothing cached. */
  const freshEnv = () => {
    const home = mkdtempSync(join(base, 'home-'));
    return {
      home,
      env: {
        ...process.env,
        NO_COLOR: '1',
        HOME: home,
        MCP_SMART_CACHE_DIR: join(home, 'cache'),
        MCP_SMART_DATA_DIR: join(home, 'data'),
      },
    };
  };
  const node = () => {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '']);
    return performance.now() - t;
  };
  const serveRun = async (file, mode) => {
    const { home, env } = freshEnv();
    try {
      return await toFirstList(process.execPath, [BIN, '--config', file, 'serve', '--mode', mode], env, home);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  };
  try {
    const files = Object.fromEntries(counts.map((n) => [n, config(n)]));
    await serveRun(files[counts[0]], 'meta'); // the first spawn of the bundle pays the disk
    const times = { node: [], direct: [] };
    for (const n of counts) times[`meta${n}`] = [];
    times.tools4 = [];
    for (let r = 0; r < rounds; r++) {
      times.node.push(node());
      for (const n of counts) times[`meta${n}`].push(await serveRun(files[n], 'meta'));
      times.direct.push(await toFirstList(process.execPath, server, process.env, base));
      times.tools4.push(await serveRun(files[4], 'tools'));
    }
    const n50 = pct(times.node, 0.5);
    say(`node ${process.version}; ${new Date().toISOString()}; ${rounds} rounds, each in a fresh HOME (no cache)`);
    say(`node -e "": p50 ${n50.toFixed(0)} ms`);
    for (const n of counts) {
      const s = pct(times[`meta${n}`], 0.5);
      say(
        `serve --mode meta, ${n} servers, cold: spawn → first tools/list answered p50 ${s.toFixed(0)} ms (p95 ${pct(times[`meta${n}`], 0.95).toFixed(0)}): ${(s / n50).toFixed(1)}× node (goal ≤ 4×)`,
      );
    }
    const d = pct(times.direct, 0.5);
    const t = pct(times.tools4, 0.5);
    say(
      `serve --mode tools, 4 servers, cold: p50 ${t.toFixed(0)} ms; one of them spawned and listed directly p50 ${d.toFixed(0)} ms: ${(t / d).toFixed(2)}× (goal ≤ 1.2×)`,
    );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
