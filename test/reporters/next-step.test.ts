// The closing `Next:` line: one line per step, the setup's global options repeated, words quoted for a shell.
import { describe, expect, it } from 'vitest';
import { renderNextStep } from '../../src/reporters/next-step-line.js';

describe('renderNextStep', () => {
  it('says each step in one line', () => {
    const lines = [
      renderNextStep({ code: 'budget', tokens: 4_511, limit: 2_000, max: 20_000 }, 'audit', ['--demo']),
      renderNextStep({ code: 'baseline', file: 'mcp-smart.lock.json' }, 'audit', []),
      renderNextStep({ code: 'baseline', file: 'mcp-smart.lock.json' }, 'servers', []),
      renderNextStep({ code: 'adopt', client: 'gemini', servers: 3 }, 'servers', []),
      renderNextStep({ code: 'adopt', client: 'codex', servers: 1 }, 'audit', []),
      renderNextStep({ code: 'audit' }, 'servers', ['--snapshot', 'my snap.json']),
      renderNextStep({ code: 'check', file: 'ci/lock.json' }, 'audit', ['-c', 'a.json', '--client', 'cursor']),
    ];
    expect(lines).toEqual([
      'Next: `mcp-smart --demo budget --max 20000` prints a plan that fits: the tools take 4,511 tokens, over the 2,000 allowed (10.0% of 20,000).\n',
      'Next: `mcp-smart init` records these figures as the baseline (mcp-smart.lock.json) that `check` gates on (`mcp-smart check --update` writes the baseline alone).\n',
      'Next: `mcp-smart audit` shows what these servers cost; `mcp-smart init` then records the baseline (mcp-smart.lock.json) that `check` gates on.\n',
      'Next: `mcp-smart adopt gemini` moves the 3 servers Gemini CLI loads behind `mcp-smart serve`, and prints the way back.\n',
      'Next: `mcp-smart adopt codex` moves the server Codex loads behind `mcp-smart serve`, and prints the way back.\n',
      "Next: `mcp-smart --snapshot 'my snap.json' audit` shows what these servers cost in tokens.\n",
      'Next: `mcp-smart -c a.json --client cursor check` compares them with the baseline ci/lock.json and exits 1 when they grew.\n',
    ]);
    for (const l of lines) expect(l.split('\n')).toHaveLength(2);
  });
});
