// bench/plain-result.mjs — what serve's own handling of one forwarded plain tools/call result costs in process:
// the check every forwarded result passes (result-check.ts's resultProblem) and the stdio wire path's encoding of
// it (plain-result.ts's plainWireResult), for this tree's dist/ and a baseline build's (BENCH_PLAIN_BASE=<folder with
// dist/>, e.g. main's build copied aside), alternating in rounds. Results: an echo's (one short text block, the keys in
// the SDK parse's order, as a server on the SDK sends them), a 20-block one, and the echo with its keys in another
// order (the copy the wire path must make). CPU time per result (process.cpuUsage) over BENCH_PLAIN_N results
// (default 2,000,000), and the bytes allocated per result: the heap's growth over 1,000 results after a full
// collection (too few to start a scavenge).
import { join } from 'node:path';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { REPO } from './helpers/datasets.mjs';

const N = Number(process.env.BENCH_PLAIN_N ?? 2_000_000);
const builds = [{ label: 'this tree', root: REPO }];
if (process.env.BENCH_PLAIN_BASE) builds.push({ label: 'base', root: process.env.BENCH_PLAIN_BASE });
for (const b of builds) {
  b.check = (await import(join(b.root, 'dist', 'serve', 'result-check.js'))).resultProblem;
  b.encode = (await import(join(b.root, 'dist', 'serve', 'plain-result.js'))).plainWireResult;
}
const text = (t) => ({ type: 'text', text: t });
const results = {
  'echo (1 block, SDK order)': { content: [text('Echo: hi')] },
  '20 blocks + structuredContent + isError': {
    content: Array.from({ length: 20 }, (_, i) => text(`line ${i}`)),
    structuredContent: { n: 20 },
    isError: false,
  },
  'echo, keys in another order': { isError: false, content: [{ text: 'Echo: hi', type: 'text' }] },
};
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
let sink = 0;
/** What serve does with one forwarded plain result on stdio: the check, then the wire path's encoding. */
function handle(b, r) {
  if (b.check(r) !== undefined) throw new Error('a valid result was refused');
  sink += b.encode(r) === undefined ? 0 : 1;
}
function cpuOf(b, r, n) {
  const c = process.cpuUsage();
  for (let i = 0; i < n; i++) handle(b, r);
  const d = process.cpuUsage(c);
  return d.user + d.system;
}
function bytesOf(b, r) {
  const n = 1000;
  gc();
  const before = getHeapStatistics().used_heap_size;
  for (let i = 0; i < n; i++) handle(b, r);
  return (getHeapStatistics().used_heap_size - before) / n;
}
console.log(`node ${process.version}; ${N} results each`);
console.log('| result | build | CPU per result | bytes allocated per result |');
console.log('| --- | --- | ---: | ---: |');
for (const [name, r] of Object.entries(results)) {
  for (const b of builds) cpuOf(b, r, 100_000);
  const cpu = new Map(builds.map((b) => [b, 0]));
  const ROUNDS = 10;
  for (let round = 0; round < ROUNDS; round++)
    for (const b of round % 2 === 0 ? builds : [...builds].reverse()) cpu.set(b, cpu.get(b) + cpuOf(b, r, N / ROUNDS));
  for (const b of builds)
    console.log(`| ${name} | ${b.label} | ${((cpu.get(b) * 1000) / N).toFixed(0)} ns | ${bytesOf(b, r).toFixed(0)} |`);
}
if (sink < 0) console.log(sink);
