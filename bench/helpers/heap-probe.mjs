// Preloaded into a process under measurement (`node --expose-gc --import bench/helpers/heap-probe.mjs …`): on
// SIGUSR2 it forces a full GC and appends one JSON line of process.memoryUsage() (bytes) to HEAP_PROBE_OUT.
// Used by bench/serve-rss.mjs (BENCH_RSS_HEAP=1) to tell what is live from what V8 and malloc keep committed.
import { appendFileSync } from 'node:fs';

const out = process.env.HEAP_PROBE_OUT;
if (out)
  process.on('SIGUSR2', () => {
    globalThis.gc?.();
    appendFileSync(out, `${JSON.stringify({ pid: process.pid, ...process.memoryUsage() })}\n`);
  });
