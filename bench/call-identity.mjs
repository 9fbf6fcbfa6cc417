// bench/call-identity.mjs — the same forwarded tools/call lines through two builds of `serve` over stdio, answers
// compared byte for byte: this tree's and a baseline's (BENCH_IDENTITY_BASE=<folder with bin/mcp-smart.js>, e.g.
// main's build copied aside). One raw 2025 connection per build (initialize, initialized, tools/list, then the calls
// one at a time), in front of the same fixture servers: plain text, isError, images, audio, resources, a JSON-RPC
// error, keys in another order, a credential in an error, an unknown tool, arguments that are not an object, a call
// the server never answers (the call timeout), a cancelled call (no answer) and a server that dies mid-call. Each
// answer line must be equal (ids are the client's, so they are equal too). Exit 1 on any difference.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './helpers/datasets.mjs';
import { scratchEnv } from './helpers/scratch.mjs';

const BASE = process.env.BENCH_IDENTITY_BASE;
if (!BASE) {
  console.error('bench:call-identity: set BENCH_IDENTITY_BASE to a folder with bin/mcp-smart.js (a baseline build)');
  process.exit(2);
}
const fixture = (...p) => join(REPO, 'fixtures', 'servers', ...p);
const server = (file) => ({ command: process.execPath, args: [file] });

/** The calls, in order: [served tool, arguments, what is expected of the answer]. */
const CALLS = [
  ['test_simple_text', {}],
  ['test_error_handling', {}],
  ['test_image_content', {}],
  ['test_audio_content', {}],
  ['test_embedded_resource', {}],
  ['test_multiple_content_types', {}],
  ['test_tool_with_logging', {}],
  ['test_logging_tool', {}],
  ['json_schema_2020_12_tool', { name: 'x' }],
  ['echo', { text: 'héllo "quoted"\n\u2028 \u{1F600}' }],
  ['echo', { text: '' }],
  ['leak', {}],
  ['leak_rpc', {}],
  ['unordered', {}],
  ['ordered', {}],
  ['no_such_tool', {}],
  ['echo', 'not an object'],
  ['hang_forever', {}, 'timeout'],
  ['hang_forever', {}, 'cancel'],
  ['test_simple_text', { extra: [1, 2, { a: null }] }],
  ['crash_mid_call', {}],
];

function open(root, config, env) {
  const args = [
    join(root, 'bin', 'mcp-smart.js'),
    'serve',
    '--config',
    config,
    '--mode',
    'tools',
    '--no-learn',
    ...(process.env.BENCH_IDENTITY_DEBUG ? ['--debug'] : []),
  ];
  const child = spawn(process.execPath, [...args, '--call-timeout', '1500'], {
    env,
    stdio: ['pipe', 'pipe', process.env.BENCH_IDENTITY_DEBUG ? 'inherit' : 'ignore'],
  });
  const lines = [];
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buffer += d;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      lines.push(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
  });
  const send = (m) => child.stdin.write(JSON.stringify(m) + '\n');
  const answer = async (id, ms = 20_000) => {
    const end = Date.now() + ms;
    for (;;) {
      const line = lines.find((l) => JSON.parse(l).id === id);
      if (line !== undefined) return line;
      if (Date.now() > end) return undefined;
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { child, send, answer, close: () => child.stdin.end() };
}

async function run(root, config, env) {
  const s = open(root, config, env);
  const out = [];
  s.send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'identity', version: '1' } },
  });
  await s.answer(0);
  s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  s.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  out.push(['tools/list', await s.answer(1)]);
  let id = 10;
  for (const [name, args, how] of CALLS) {
    const callId = id++;
    s.send({ jsonrpc: '2.0', id: callId, method: 'tools/call', params: { name, arguments: args } });
    if (how === 'cancel') {
      await new Promise((r) => setTimeout(r, 200));
      s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: callId, reason: 'user' } });
      out.push([`${name} (cancelled)`, (await s.answer(callId, 1000)) ?? '(no answer)']);
      continue;
    }
    out.push([name, (await s.answer(callId)) ?? '(no answer)']);
  }
  s.close();
  await new Promise((r) => s.child.once('exit', r));
  return out;
}

const work = mkdtempSync(join(tmpdir(), 'mcp-smart-bench-identity-'));
try {
  const config = join(work, 'servers.json');
  const servers = {
    conf: server(fixture('conformance-server.mjs')),
    faults: server(fixture('misbehaving', 'call-faults.mjs')),
    // Its `leak` tools quote this credential back: serve redacts it.
    secret: {
      ...server(fixture('misbehaving', 'echo-secret.mjs')),
      env: { FIXTURE_API_TOKEN: 'sk-identity-0123456789abcdef' },
    },
    order: server(fixture('key-order-server.mjs')),
  };
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  // Each build in a fresh home of its own: the first would otherwise leave the other a catalogue cache.
  const fresh = (name) => {
    const home = join(work, name);
    mkdirSync(home);
    return scratchEnv(home);
  };
  const [mine, base] = [await run(REPO, config, fresh('this')), await run(BASE, config, fresh('base'))];
  let differ = 0;
  for (let i = 0; i < mine.length; i++) {
    const same = mine[i][1] === base[i][1];
    if (!same) differ++;
    console.log(`${same ? 'same' : 'DIFFERENT'}  ${mine[i][0]}: ${mine[i][1].slice(0, 110)}`);
    if (!same) console.log(`     base: ${base[i][1].slice(0, 200)}\n     this: ${mine[i][1].slice(0, 200)}`);
  }
  console.log(`${mine.length - differ} of ${mine.length} answers byte-identical to ${BASE}'s`);
  process.exitCode = differ === 0 ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
