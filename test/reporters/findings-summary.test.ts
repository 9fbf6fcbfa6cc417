import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/audit/index.js';
import { findingLines } from '../../src/reporters/findings-summary.js';

const plain = { error: (t: string) => t, warning: (t: string) => t, info: (t: string) => t };
const param = (i: number): Finding => ({
  code: 'PARAM_DESCRIPTION_MISSING',
  severity: 'info',
  server: 's',
  tool: `t${i}`,
  message: `Parameters without description: p${i}.`,
});
const long: Finding = {
  code: 'DESCRIPTION_TOO_LONG',
  severity: 'warning',
  server: 'w',
  tool: 'big',
  message: 'Description is 565 tokens (limit 400).',
};

describe('findings on the terminal', () => {
  it('lists up to 20 findings one per line', () => {
    const lines = findingLines([long, param(1)], plain);
    expect(lines).toEqual([
      '  WARNING DESCRIPTION_TOO_LONG       w.big: Description is 565 tokens (limit 400).',
      '  INFO    PARAM_DESCRIPTION_MISSING  s.t1: Parameters without description: p1.',
    ]);
  });

  it('groups more than 20 by code, most severe first, with a count, three places and where the rest is', () => {
    const lines = findingLines([...Array.from({ length: 1204 }, (_, i) => param(i)), long], plain);
    expect(lines).toEqual([
      '  WARNING DESCRIPTION_TOO_LONG          ×1  w.big (e.g. Description is 565 tokens (limit 400).)',
      '  INFO    PARAM_DESCRIPTION_MISSING ×1,204  s.t0, s.t1, s.t2 and 1,201 more (e.g. Parameters without description: p0.)',
      '  1,205 findings grouped by code: the full list is in --json and --html <file>.',
    ]);
  });
});
