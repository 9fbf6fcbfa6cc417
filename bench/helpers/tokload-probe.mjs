// One process of bench/tokload.mjs: loads a build's token counter as serve does (count cache on, tokenizer loaded at
// the first uncached text: src/serve/deps.ts) and prints, as JSON, how long until the first count, the longest the
// event loop was held meanwhile (perf_hooks.monitorEventLoopDelay, 1 ms resolution) and the RSS after.
// With `worker`, the counter is loaded and counts in a worker_thread (what serve would pay for one: the RSS of a
// second isolate) and the main thread only waits for its answer.
//   node bench/helpers/tokload-probe.mjs <folder holding dist/> <encoding> <empty cache folder> [worker]
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const [tree, encoding, cacheDir, mode] = process.argv.slice(2);
const index = pathToFileURL(join(tree, 'dist', 'core', 'tokens', 'index.js')).href;
const text = 'Counts the tokens of every tool definition an MCP client sends: 数えます.';
/** Loads the counter as serve does and counts `text`. */
async function countOnce() {
  const { createTokenCounter, prepareCounter } = await import(index);
  const counter = await createTokenCounter(encoding, { cacheDir, deferLoad: true });
  await prepareCounter(counter, [text]);
  return counter.count(text);
}
const inWorker = () =>
  new Promise((resolve, reject) => {
    const code = `import { parentPort } from 'node:worker_threads';
      const { createTokenCounter, prepareCounter } = await import(${JSON.stringify(index)});
      const counter = await createTokenCounter(${JSON.stringify(encoding)}, { cacheDir: ${JSON.stringify(cacheDir)}, deferLoad: true });
      await prepareCounter(counter, [${JSON.stringify(text)}]);
      parentPort.postMessage(counter.count(${JSON.stringify(text)}));
      parentPort.once('message', () => process.exit(0));`;
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`));
    worker.once('message', (n) => resolve({ n, worker }));
    worker.once('error', reject);
  });
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const start = performance.now();
const { n: count, worker } = mode === 'worker' ? await inWorker() : { n: await countOnce() };
const firstCountMs = performance.now() - start;
// One more tick so that a block at the very end is in the histogram.
await new Promise((resolve) => setTimeout(resolve, 5));
delay.disable();
console.log(
  JSON.stringify({ firstCountMs, maxBlockMs: delay.max / 1e6, rssMB: process.memoryUsage().rss / 1e6, count }),
);
if (worker) {
  worker.postMessage('exit');
  await new Promise((resolve) => worker.once('exit', resolve));
}
