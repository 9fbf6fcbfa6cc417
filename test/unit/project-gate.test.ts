// mcp-smart's own project gate, the pure part: which servers need approval, what the approval is keyed by.
import { describe, expect, it } from 'vitest';
import {
  holdUnapproved,
  isApprovedInList,
  parseTrustList,
  projectDefinitionsHash,
  reachingSettings,
  withApproval,
} from '../../src/core/trust/project-gate.js';
import type { ServerDefinition } from '../../src/core/types.js';

const def = (name: string, extra: Partial<ServerDefinition> = {}): ServerDefinition => ({
  name,
  transport: 'stdio',
  command: 'node',
  args: ['s.js'],
  enabled: true,
  source: `/p/.cursor/mcp.json`,
  scope: 'project',
  ...extra,
});

describe('projectDefinitionsHash', () => {
  it('changes when what would run changes, not with credential values (they never enter it) or the order', () => {
    const base = projectDefinitionsHash([def('a', { env: { TOKEN: 'one' } }), def('b')]);
    expect(projectDefinitionsHash([def('b'), def('a', { env: { TOKEN: 'two' } })])).toBe(base);
    expect(projectDefinitionsHash([def('a', { env: { TOKEN: 'one' }, args: ['evil.js'] }), def('b')])).not.toBe(base);
    expect(projectDefinitionsHash([def('a', { env: { OTHER: 'one' } }), def('b')])).not.toBe(base);
    expect(projectDefinitionsHash([def('a', { env: { TOKEN: 'one' } }), def('b'), def('c')])).not.toBe(base);
  });

  it('user-level and local-scope servers do not enter it', () => {
    const base = projectDefinitionsHash([def('a')]);
    expect(projectDefinitionsHash([def('a'), def('u', { scope: 'user' }), def('l', { layer: 'local' })])).toBe(base);
  });
});

describe('holdUnapproved', () => {
  it('holds enabled project-file servers not approved by their client; leaves user, local, explicit and approved ones', () => {
    const defs = [
      def('p'),
      def('approved-in-client', { clientApproved: true }),
      def('user', { scope: 'user' }),
      def('local', { layer: 'local' }),
      def('explicit', { scope: 'explicit' }),
      def('off', { enabled: false }),
    ];
    const held = holdUnapproved(defs, false);
    expect(held.map((d) => d.name)).toEqual(['p']);
    expect(defs.map((d) => [d.name, d.enabled])).toEqual([
      ['p', false],
      ['approved-in-client', true],
      ['user', true],
      ['local', true],
      ['explicit', true],
      ['off', false],
    ]);
    expect(defs[0]?.pendingTrust).toBe(true);
    expect(defs[0]?.notLoaded).toContain('mcp-smart trust');
    expect(holdUnapproved([def('q')], true)).toEqual([]);
  });
});

describe('trust list', () => {
  it('an approval counts for its project and hash only, and replaces the project’s earlier one', () => {
    const one = withApproval(undefined, '/p', 'h1', new Date(0));
    expect(isApprovedInList(one, '/p', 'h1')).toBe(true);
    expect(isApprovedInList(one, '/p', 'h2')).toBe(false);
    expect(isApprovedInList(one, '/q', 'h1')).toBe(false);
    const two = withApproval(withApproval(one, '/q', 'hq', new Date(0)), '/p', 'h2', new Date(0));
    expect(two.projects.map((r) => [r.project, r.hash])).toEqual([
      ['/q', 'hq'],
      ['/p', 'h2'],
    ]);
  });

  it('a file that is not a trust list approves nothing; malformed records are dropped', () => {
    expect(parseTrustList({ nope: 1 })).toBeUndefined();
    expect(parseTrustList(null)).toBeUndefined();
    const list = parseTrustList({ projects: [{ project: '/p', hash: 'h' }, { project: 3 }, 'x'] });
    expect(list?.projects).toEqual([{ project: '/p', hash: 'h' }]);
  });
});

describe('what an approval covers (issue 41, classes 1 and 3)', () => {
  it('env values that change what runs enter the hash; credential-named values do not', () => {
    const base = projectDefinitionsHash([def('a', { env: { NODE_OPTIONS: '', API_TOKEN: 'one' } })]);
    // A rotated token asks nothing again.
    expect(projectDefinitionsHash([def('a', { env: { NODE_OPTIONS: '', API_TOKEN: 'two' } })])).toBe(base);
    for (const [k, v] of [
      ['NODE_OPTIONS', '--require /tmp/payload.js'],
      ['LD_PRELOAD', '/tmp/evil.so'],
      ['PYTHONPATH', '/tmp/evil'],
      ['PATH', '/tmp/bin'],
    ] as const)
      expect(projectDefinitionsHash([def('a', { env: { NODE_OPTIONS: '', API_TOKEN: 'one', [k]: v } })])).not.toBe(
        base,
      );
  });

  it('a store reaching outside the project enters the hash; one inside is not a reaching setting', () => {
    expect(reachingSettings('postgres://mcp@db.example/team', '/p')).toEqual({
      store: 'postgres://mcp@db.example/team',
    });
    expect(reachingSettings('../elsewhere/usage.json', '/p')).toEqual({ store: '../elsewhere/usage.json' });
    expect(reachingSettings('/home/u/usage.json', '/p')).toEqual({ store: '/home/u/usage.json' });
    expect(reachingSettings('data/usage.json', '/p')).toEqual({});
    expect(reachingSettings(undefined, '/p')).toEqual({});
    const servers = [def('a')];
    expect(projectDefinitionsHash(servers, { store: 'postgres://a/x' })).not.toBe(projectDefinitionsHash(servers));
    expect(projectDefinitionsHash(servers, { store: 'postgres://a/x' })).not.toBe(
      projectDefinitionsHash(servers, { store: 'postgres://b/x' }),
    );
  });
});
