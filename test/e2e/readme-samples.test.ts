// The documentation's samples are outputs: scripts/readme-samples.mjs generates each marked block of README.md and
// docs/*.md from a real run of this build (and the package sizes from the packed tarball); here the same generation
// runs and every block must match, in whichever file it stands. After a change that moves a figure:
// `npm run build && node scripts/readme-samples.mjs`, and commit the files it rewrote.
import { beforeAll, describe, expect, it } from 'vitest';
import { applyToDocs, collectSamples, docFiles, docSamples, readDocs, SAMPLES } from '../../scripts/readme-samples.mjs';

const TIMEOUT = 1_200_000;
const docs = readDocs();
const present = docSamples(docs);
let generated: Record<string, string> = {};

/** Timings would differ from run to run; paths are already shown as /tmp/demo by the generator. */
const normalise = (s: string): string => s.replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, '<time>');

beforeAll(async () => {
  generated = await collectSamples();
}, TIMEOUT);

describe('readme-samples: every marked block of README.md and docs/*.md is what this build prints', () => {
  it('the files read are README.md and every page of docs/', () => {
    expect(docFiles()[0]).toBe('README.md');
    expect(docFiles()).toContain('docs/commands.md');
  });

  it('every sample has its markers in one of the files, and every marker a sample', () => {
    expect(Object.keys(present).sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  for (const name of Object.keys(SAMPLES)) {
    it(`sample:${name}`, () => {
      expect(
        normalise(present[name]?.text ?? ''),
        `${present[name]?.file}: run node scripts/readme-samples.mjs --only ${name}`,
      ).toBe(normalise(generated[name]!));
    });
  }

  it('applying the generated samples changes no file', () => {
    expect(applyToDocs(docs, generated)).toEqual(docs);
  });

  it('a drifted block in a docs page is found and put back', () => {
    const name = Object.keys(present).find((n) => present[n]!.file !== 'README.md')!;
    const file = present[name]!.file;
    const drifted = { ...docs, [file]: docs[file]!.replace(present[name]!.text, 'stale\n') };
    expect(docSamples(drifted)[name]!.text).not.toBe(generated[name]);
    expect(applyToDocs(drifted, generated)[file]).toBe(applyToDocs(docs, generated)[file]);
  });

  it('the samples really ran: the figures in them are the ones the commands count', () => {
    expect(generated['demo-audit']).toMatch(/^Tool context: [\d,]+ tokens for \d+ tools on 4 servers/m);
    expect(generated.budget).toMatch(/^With this plan: [\d,]+ tokens \(saves [\d,]+\), fits\.$/m);
    expect(generated['package-size']).toMatch(/^\| tarball \(\d+ files\) \| \d+\.\d MB/m);
  });
});
