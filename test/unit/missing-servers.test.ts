// No silent shrinkage (issue 36): which baseline servers a run did not reach, and why; deliberate removals are not.
import { describe, expect, it } from 'vitest';
import { findMissingServers, type Baseline } from '../../src/core/budget/index.js';
import { compareTokens } from '../../src/core/session/replay.js';
import type { ServerDefinition } from '../../src/core/types.js';

const baseline: Baseline = {
  format: 'mcp-smart/baseline@1',
  encoding: 'o200k_base',
  thresholds: { maxGrowth: '5%' },
  servers: {
    a: { tokens: 10, tools: { x: { tokens: 10, hash: 'h' } } },
    b: { tokens: 7, tools: { z: { tokens: 3, hash: 'h' }, y: { tokens: 4, hash: 'h' } } },
    c: { tokens: 5, tools: { w: { tokens: 5, hash: 'h' } } },
    d: { tokens: 1, tools: { v: { tokens: 1, hash: 'h' } } },
    e: { tokens: 2, tools: { u: { tokens: 2, hash: 'h' } } },
  },
};
const def = (name: string, extra: Partial<ServerDefinition>): ServerDefinition => ({
  name,
  transport: 'stdio',
  command: 'node',
  enabled: false,
  source: '/p/.mcp.json',
  scope: 'project',
  ...extra,
});

describe('findMissingServers', () => {
  it('names failed, pending and client-held servers with their tools; removed and disabled ones are not missing', () => {
    const defs = [
      def('a', { enabled: true }),
      def('b', { pendingTrust: true, notLoaded: 'pending approval in mcp-smart', shadowed: ['/p/.mcp.json'] }),
      def('c', { gate: 'claude-pending', notLoaded: 'pending approval in Claude Code' }),
      def('e', { enabled: false }), // "disabled": true in its file
    ];
    const missing = findMissingServers(baseline, [{ name: 'a', status: 'error', error: 'boom' }], defs);
    expect(missing).toEqual([
      { server: 'a', tools: ['a.x'], tokens: 10, reason: 'failed', detail: 'boom' },
      {
        server: 'b',
        tools: ['b.y', 'b.z'],
        tokens: 7,
        reason: 'pending-approval',
        detail: 'pending approval in mcp-smart',
        shadows: ['/p/.mcp.json'],
      },
      { server: 'c', tools: ['c.w'], tokens: 5, reason: 'client-gated', detail: 'pending approval in Claude Code' },
    ]);
    expect(findMissingServers(baseline, [{ name: 'a', status: 'ok' }], defs, ['a', 'd'])).toEqual([]);
    // A --snapshot run has no definitions: what the snapshot lacks was left out by its writer.
    expect(findMissingServers(baseline, [], undefined)).toEqual([]);
  });
});

describe('replay token comparison', () => {
  it('claims no saving when no case was replayed', () => {
    expect(compareTokens([], 5, new Map([['a.x', 100]]))).toEqual({ k: 5, all: 100, topK: 0, saved: 0 });
    expect(
      compareTokens(
        [['a.x']],
        5,
        new Map([
          ['a.x', 100],
          ['b.y', 100],
        ]),
      ).saved,
    ).toBe(0.5);
  });
});
