// The README's samples are outputs: scripts/readme-samples.mjs generates each marked block from a real run of this
// build (and the package sizes from the packed tarball); here the same generation runs and every block must match.
// After a change that moves a figure: `npm run build && node scripts/readme-samples.mjs`, and commit README.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { applySamples, collectSamples, readmeSamples, SAMPLES } from '../../scripts/readme-samples.mjs';
import { REPO } from '../helpers/paths.js';

const TIMEOUT = 600_000;
const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
let generated: Record<string, string> = {};

/** Timings would differ from run to run; paths are already shown as /tmp/demo by the generator. */
const normalise = (s: string): string => s.replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, '<time>');

beforeAll(async () => {
  generated = await collectSamples();
}, TIMEOUT);

describe('readme-samples: every marked README block is what this build prints', () => {
  it('every sample has its markers in the README, and every marker a sample', () => {
    expect(Object.keys(readmeSamples(readme)).sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  for (const name of Object.keys(SAMPLES)) {
    it(`sample:${name}`, () => {
      expect(normalise(readmeSamples(readme)[name] ?? ''), `run: node scripts/readme-samples.mjs --only ${name}`).toBe(
        normalise(generated[name]!),
      );
    });
  }

  it('applying the generated samples to the README changes nothing', () => {
    expect(applySamples(readme, generated)).toBe(readme);
  });

  it('the samples really ran: the figures in them are the ones the commands count', () => {
    expect(generated['demo-audit']).toMatch(/^Tool context: [\d,]+ tokens for \d+ tools on 4 servers/m);
    expect(generated.budget).toMatch(/^With this plan: [\d,]+ tokens \(saves [\d,]+\), fits\.$/m);
    expect(generated['package-size']).toMatch(/^\| tarball \(\d+ files\) \| \d+\.\d MB/m);
  });
});
