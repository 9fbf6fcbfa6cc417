// The next step servers and audit end with: chosen from the setup's state, one rule in one place.
import { describe, expect, it } from 'vitest';
import { chooseNextStep, type NextStepState } from '../../src/core/next-step.js';

const base: NextStepState = {
  command: 'audit',
  servers: 3,
  baseline: { file: 'mcp-smart.lock.json', exists: true },
  clients: [],
};

describe('chooseNextStep', () => {
  it('over budget comes first, even without a baseline and with client servers', () => {
    expect(
      chooseNextStep({
        ...base,
        baseline: { file: 'mcp-smart.lock.json', exists: false },
        clients: [{ client: 'cursor', servers: 2 }],
        budget: { tokens: 4_511, limit: 2_000, max: 20_000 },
      }),
    ).toEqual({ code: 'budget', tokens: 4_511, limit: 2_000, max: 20_000 });
  });

  it('at the limit is not over it', () => {
    expect(chooseNextStep({ ...base, budget: { tokens: 2_000, limit: 2_000, max: 20_000 } })).toEqual({
      code: 'check',
      file: 'mcp-smart.lock.json',
    });
  });

  it('a missing baseline comes before adopting', () => {
    const state = {
      ...base,
      baseline: { file: 'ci/base.json', exists: false },
      clients: [{ client: 'codex' as const, servers: 1 }],
    };
    expect(chooseNextStep(state)).toEqual({ code: 'baseline', file: 'ci/base.json' });
    expect(chooseNextStep({ ...state, command: 'servers' })).toEqual({ code: 'baseline', file: 'ci/base.json' });
  });

  it('adopts the client with the most enabled servers (ties by id), skipping clients with none', () => {
    const clients = [
      { client: 'gemini' as const, servers: 2 },
      { client: 'claude-code' as const, servers: 2 },
      { client: 'codex' as const, servers: 1 },
      { client: 'cursor' as const, servers: 0 },
    ];
    expect(chooseNextStep({ ...base, clients })).toEqual({ code: 'adopt', client: 'claude-code', servers: 2 });
    expect(chooseNextStep({ ...base, clients: [{ client: 'cursor', servers: 0 }] })).toEqual({
      code: 'check',
      file: 'mcp-smart.lock.json',
    });
  });

  it('otherwise the command that follows: audit after servers, check after audit; nothing without servers', () => {
    expect(chooseNextStep({ ...base, command: 'servers' })).toEqual({ code: 'audit' });
    expect(chooseNextStep(base)).toEqual({ code: 'check', file: 'mcp-smart.lock.json' });
    expect(chooseNextStep({ ...base, servers: 0, baseline: { file: 'x', exists: false } })).toBeUndefined();
  });
});
