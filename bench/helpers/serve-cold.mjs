// bench:cold, the cold serve case (issue 40.1): `serve` started in a fresh HOME (no tool-list, count or index cache)
// in front of 4 and 50 fixture servers, timed from spawn to its first tools/list answer over raw JSON-RPC on stdio
// (initialize → initialized → tools/list, no client library on the clock), each round interleaved with `node -e ""`
// and, for tools mode, with one of the same servers spawned and listed directly (one server's own start, alone on the
// machine) and with the 4 servers spawned and listed directly side by side, as a client without serve starts them
// (the slowest of them: each server's own start where serve's 4 start too, on the same CPUs).
// Goals: meta mode ≤ 4× node with 4 and 50 servers; tools mode without a cache ≤ the server's own start + 20 %;
// tools mode with the catalogue cache (a HOME where serve ran once, its servers listed and counted) ≤ 4× node.
// `base`: another built checkout (BENCH_COLD_BASE) whose serve is interleaved in each measure, the named baseline.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INITIALIZE } from './raw-stdio.mjs';

const pct = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)];

/**
 * Spawn → the answer to tools/list (after initialize and initialized), in ms; then stdin is closed. `atAnswer` is
 * given the child's pid when the answer comes (while it runs).
 */
export function toFirstList(command, args, env, cwd, said, atAnswer) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', said ? 'pipe' : 'ignore'] });
    // `said`: stdin stays open until serve's stderr matches it (a run that fills the caches).
    let err = '';
    let listed = false;
    const end = () => listed && (!said || said.test(err)) && child.stdin.end();
    child.stderr?.on('data', (d) => ((err += String(d)), end()));
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
          atAnswer?.(child.pid);
          if (!said && !m.result?.tools?.length)
            reject(new Error(`no tools listed: ${JSON.stringify(m).slice(0, 200)}`));
          listed = true;
          end();
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

export async function serveCold({ REPO, base, rounds = 7, counts = [4, 50] }, say) {
  const server = [
    join(REPO, 'fixtures', 'servers', 'catalog-server.mjs'),
    join(REPO, 'fixtures', 'servers', 'catalogs', 'tiny.json'),
  ];
  const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-serve-cold-'));
  const config = (n) => {
    const file = join(dir, `servers-${n}.json`);
    const servers = Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`s${i}`, { command: process.execPath, args: server }]),
    );
    writeFileSync(file, JSON.stringify({ servers }));
    return file;
  };
  const envOf = (home) => ({
    ...process.env,
    NO_COLOR: '1',
    HOME: home,
    MCP_SMART_CACHE_DIR: join(home, 'cache'),
    MCP_SMART_DATA_DIR: join(home, 'data'),
  });
  const node = () => {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '']);
    return performance.now() - t;
  };
  const argsOf = (repo, file, mode) => [join(repo, 'bin', 'mcp-smart.js'), '--config', file, 'serve', '--mode', mode];
  /** A run in a fresh HOME: nothing cached. */
  const coldRun = async (repo, file, mode) => {
    const home = mkdtempSync(join(dir, 'home-'));
    try {
      return await toFirstList(process.execPath, argsOf(repo, file, mode), envOf(home), home);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  };
  /** A HOME where serve ran once until every server was listed and counted: the catalogue and count caches. */
  const warmHome = async (repo, file, n) => {
    const home = mkdtempSync(join(dir, 'warm-'));
    const said = new RegExp(`tools mode: .* from ${n} servers`);
    await toFirstList(process.execPath, argsOf(repo, file, 'tools'), envOf(home), home, said);
    return home;
  };
  const cachedRun = (repo, file, home) => toFirstList(process.execPath, argsOf(repo, file, 'tools'), envOf(home), home);
  const builds = [['', REPO], ...(base ? [[' (base)', base]] : [])];
  try {
    const files = Object.fromEntries(counts.map((n) => [n, config(n)]));
    for (const [, repo] of builds) await coldRun(repo, files[counts[0]], 'meta'); // the first spawn pays the disk
    const homes = {};
    for (const [tag, repo] of builds) for (const n of counts) homes[`${n}${tag}`] = await warmHome(repo, files[n], n);
    const times = { node: [], direct: [], direct4: [] };
    const push = (key, t) => (times[key] ??= []).push(t);
    for (let r = 0; r < rounds; r++) {
      times.node.push(node());
      times.direct.push(await toFirstList(process.execPath, server, process.env, dir));
      const side = await Promise.all(
        Array.from({ length: 4 }, () => toFirstList(process.execPath, server, process.env, dir)),
      );
      times.direct4.push(Math.max(...side));
      // The builds alternate which goes first in a round: neither always runs right after the servers listed directly.
      for (const [tag, repo] of r % 2 ? [...builds].reverse() : builds) {
        for (const n of counts) push(`meta${n}${tag}`, await coldRun(repo, files[n], 'meta'));
        push(`tools4${tag}`, await coldRun(repo, files[4], 'tools'));
        for (const n of counts) push(`cached${n}${tag}`, await cachedRun(repo, files[n], homes[`${n}${tag}`]));
      }
    }
    const n50 = pct(times.node, 0.5);
    const d = pct(times.direct, 0.5);
    const d4 = pct(times.direct4, 0.5);
    say(
      `node ${process.version}; ${new Date().toISOString()}; ${rounds} rounds; ${base ? `base: ${base}` : 'no base'}`,
    );
    say(`node -e "": p50 ${n50.toFixed(0)} ms; one fixture server spawned and listed directly: p50 ${d.toFixed(0)} ms`);
    say(`4 fixture servers spawned and listed directly side by side, the slowest: p50 ${d4.toFixed(0)} ms`);
    const line = (key, what, ref, refName, goal) => {
      for (const [tag] of builds) {
        const xs = times[`${key}${tag}`];
        const s = pct(xs, 0.5);
        say(
          `${what}${tag}: p50 ${s.toFixed(0)} ms (p95 ${pct(xs, 0.95).toFixed(0)}): ${(s / ref).toFixed(2)}× ${refName} (goal ≤ ${goal})`,
        );
      }
    };
    for (const n of counts) line(`meta${n}`, `serve --mode meta, ${n} servers, fresh HOME`, n50, 'node', '4×');
    line('tools4', 'serve --mode tools, 4 servers, fresh HOME', d, 'one server listed directly', '1.2×');
    line(
      'tools4',
      'serve --mode tools, 4 servers, fresh HOME',
      d4,
      'the slowest of 4 listed directly side by side',
      '1.2×',
    );
    for (const n of counts) line(`cached${n}`, `serve --mode tools, ${n} servers, catalogue cache`, n50, 'node', '4×');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
