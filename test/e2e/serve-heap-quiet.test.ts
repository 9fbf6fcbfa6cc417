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
      // Rounds of 40 bursts of 50 concurrent calls, each with an 8 KB message (each burst followed by no pause: serve
      // must not collect in the middle of them), then a pause of up to 10 s; until a pause brought a collection, at
      // most 4 rounds. How much a round grows the committed heap depends on where the start left it (a collection of
      // the start's own garbage may or may not have come first): the rounds go on until it passed GROWTH_BYTES.
      const message = 'x'.repeat(8192);
      let during = before;
      let whileCalling = 0;
      let after = collections();
      for (let round = 0; round < 4 && after.length === before; round++) {
        const start = collections().length;
        for (let burst = 0; burst < 40; burst++) {
          const tag = `${round}.${burst}`;
          const answers = await Promise.all(
            Array.from({ length: 50 }, (_, i) =>
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
      // Not per call (up to 8,000 calls): while they ran back to back, only a scheduling gap on a loaded machine can
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
