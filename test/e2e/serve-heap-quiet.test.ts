// serve gives back the garbage of a burst of calls once they stop (src/serve/heap-quiet.ts), as a client meets it:
// the built CLI over stdio, an SDK client, the tiny fixture server behind. Counted by what serve says with --debug:
// after bursts of concurrent calls and a quiet moment, one collection (not one per call), and the heap it reports
// after the collection is smaller than before it; while the client stays quiet, no further collection.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { REPO } from '../helpers/paths.js';
import { connectServeStdio, node, sandbox, textOf, type Sandbox } from './serve-harness.js';

const CATALOG = join(REPO, 'fixtures', 'servers', 'catalog-server.mjs');
const TINY = join(REPO, 'fixtures', 'servers', 'catalogs', 'tiny.json');
const COLLECTED =
  /heap: ([\d.]+) MB \([\d.]+ MB used\) after the calls, ([\d.]+) MB \([\d.]+ MB used\) after a full collection/g;

let box: Sandbox | undefined;
afterEach(async () => {
  await box?.remove();
  box = undefined;
});

describe('serve after a burst of calls', () => {
  it('collects the calls’ garbage once they stop, and not again while quiet', async () => {
    box = await sandbox('heap-quiet');
    const config = await box.config('servers.json', { tiny: node(CATALOG, TINY) });
    const { client, stderr } = await connectServeStdio(box.env, [
      '--config',
      config,
      '--mode',
      'tools',
      '--no-learn',
      '--debug',
    ]);
    try {
      await client.listTools();
      const collections = (): RegExpMatchArray[] => [...stderr().matchAll(COLLECTED)];
      const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
      // Let the start's own garbage be dealt with first (it may or may not reach the threshold).
      await wait(1_500);
      const before = collections().length;
      // Rounds of 10 bursts of 100 concurrent calls, each with a 64 KB message (each burst followed by no pause: serve
      // must not collect in the middle of them), then a pause of up to 10 s; until a pause brought a collection (one
      // during the calls, on a loaded machine, may have taken their garbage already), at most 4 rounds. Concurrent
      // calls keep their messages alive across scavenges, so the old generation and the committed heap grow well past
      // GROWTH_BYTES (13–28 MB measured) over the baseline the start left: the heap after the collection of the start's
      // own garbage. Small bursts (50 × 2 KB) grew it by ~7.5 MB there, under the threshold: V8's own collections
      // under --heap-growing-percent cap a 16 MB live heap's growth about there.
      const message = 'x'.repeat(64 * 1024);
      let during = before;
      let whileCalling = 0;
      let after = collections();
      for (let round = 0; round < 4 && after.length === during; round++) {
        const start = collections().length;
        for (let burst = 0; burst < 10; burst++) {
          const tag = `${round}.${burst}`;
          const answers = await Promise.all(
            Array.from({ length: 100 }, (_, i) =>
              client.callTool({ name: 'echo', arguments: { message: `${tag}-${i} ${message}` } }),
            ),
          );
          expect(textOf(answers[0])).toContain(`${tag}-0 `);
        }
        during = collections().length;
        whileCalling += during - start;
        for (let waited = 0; collections().length === during && waited < 10_000; waited += 100) await wait(100);
        after = collections();
      }
      expect(after.length).toBeGreaterThan(before);
      // Not per call (up to 4,000 calls): while they ran back to back, only a scheduling gap on a loaded machine can
      // look quiet; and exactly one after they stopped.
      expect(whileCalling).toBeLessThan(10);
      expect(after.length).toBe(during + 1);
      const [, used, kept] = after.at(-1)!;
      expect(Number(kept)).toBeLessThan(Number(used));
      await wait(2_000);
      expect(collections().length).toBe(after.length);
    } finally {
      await client.close();
    }
  }, 120_000);
});
