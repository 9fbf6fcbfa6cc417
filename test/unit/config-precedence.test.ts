import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServerDefinitions } from '../../src/core/config/index.js';
import { mergeDefinitions } from '../../src/core/config/merge.js';
import { SmartError } from '../../src/process/errors.js';
import type { ServerDefinition } from '../../src/core/types.js';
import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import { CONFIGS, request, trustedHome } from '../helpers/config-request.js';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const def = (name: string, source: string, extra: Partial<ServerDefinition> = {}): ServerDefinition => ({
  name,
  transport: 'stdio',
  command: 'node',
  enabled: true,
  source,
  scope: 'project',
  ...extra,
});

describe('mergeDefinitions', () => {
  it('keeps the first of each name and records every shadowed source', () => {
    const r = mergeDefinitions([def('a', 'p1'), def('b', 'p1'), def('a', 'u1', { enabled: false }), def('a', 'u2')]);
    expect(r.servers.map((s) => [s.name, s.source, s.shadowed])).toEqual([
      ['a', 'p1', ['u1', 'u2']],
      ['b', 'p1', undefined],
    ]);
    expect(r.shadowings).toEqual([
      { name: 'a', winner: 'p1', loser: 'u1' },
      { name: 'a', winner: 'p1', loser: 'u2' },
    ]);
  });

  it('does not mutate its input', () => {
    const first = def('a', 'p1');
    mergeDefinitions([first, def('a', 'u1')]);
    expect(first.shadowed).toBeUndefined();
  });
});

describe('precedence across project and user sources', () => {
  it('project files beat user files and the shadowing is reported', async () => {
    const cwd = CONFIGS('project-all');
    const home = trustedHome(cwd, CONFIGS('home-linux'), temps);
    const r = await loadServerDefinitions(request({ cwd, home }));
    const fetch = r.servers.find((s) => s.name === 'fetch');
    expect(fetch?.source).toBe(join(cwd, '.mcp.json'));
    expect(fetch?.shadowed).toEqual([
      join(cwd, '.cursor', 'mcp.json'),
      join(home, '.claude.json'),
      join(home, '.cursor', 'mcp.json'),
    ]);
    expect(r.shadowings.filter((s) => s.name === 'fetch').map((s) => s.loser)).toEqual(fetch?.shadowed);
    // All project servers come before all user servers.
    const scopes = r.servers.map((s) => s.scope);
    expect(scopes.lastIndexOf('project')).toBeLessThan(scopes.indexOf('user'));
  });
});

describe('disabled servers', () => {
  it('lists disabled and enabled:false servers with enabled false', async () => {
    const cwd = CONFIGS('disabled');
    const r = await loadServerDefinitions(request({ cwd, home: trustedHome(cwd, undefined, temps) }));
    expect(r.servers.map((s) => [s.name, s.enabled])).toEqual([
      ['on', true],
      ['off-disabled', false],
      ['off-enabled-false', false],
    ]);
  });
});

describe('ad-hoc servers', () => {
  it('splits --stdio like a shell, names servers provisionally, and skips default locations', async () => {
    const r = await loadServerDefinitions(
      request({
        cwd: CONFIGS('project-all'),
        home: CONFIGS('home-linux'),
        adhoc: [
          { kind: 'stdio', value: `node "dist/my server.js" --flag 'a b'` },
          { kind: 'url', value: 'http://127.0.0.1:3000/mcp', name: 'mine' },
          { kind: 'stdio', value: 'python -m srv' },
        ],
      }),
    );
    expect(r.servers).toEqual([
      {
        name: 'stdio-1',
        nameFromServer: true,
        enabled: true,
        scope: 'adhoc',
        transport: 'stdio',
        command: 'node',
        args: ['dist/my server.js', '--flag', 'a b'],
        source: '--stdio',
      },
      {
        name: 'mine',
        enabled: true,
        scope: 'adhoc',
        transport: 'http',
        url: 'http://127.0.0.1:3000/mcp',
        autoTransport: true,
        source: '--url',
      },
      {
        name: 'stdio-2',
        nameFromServer: true,
        enabled: true,
        scope: 'adhoc',
        transport: 'stdio',
        command: 'python',
        args: ['-m', 'srv'],
        source: '--stdio',
      },
    ]);
    // Only our own config file is looked at, for its budget/threshold keys.
    expect(r.searched).toEqual([{ file: join(CONFIGS('project-all'), 'mcp-smart.config.json'), found: true }]);
    expect(r.config.budget?.max).toBe(128000);
  });

  it('adds ad-hoc servers to --config files, ad-hoc first', async () => {
    const r = await loadServerDefinitions(
      request({
        configFiles: [CONFIGS('detect', 'first.json')],
        adhoc: [{ kind: 'stdio', value: 'node x.js', name: 'dup' }],
      }),
    );
    expect(r.servers.map((s) => [s.name, s.source])).toEqual([['dup', '--stdio']]);
    expect(r.shadowings).toEqual([{ name: 'dup', winner: '--stdio', loser: CONFIGS('detect', 'first.json') }]);
  });

  it.each([
    ['stdio', 'node "unterminated', '--stdio'],
    ['stdio', '   ', '--stdio'],
    ['url', 'not a url', '--url'],
    ['url', 'ftp://example.test/mcp', '--url'],
  ] as const)('rejects bad ad-hoc %s value %j as BAD_FLAG', async (kind, value, flag) => {
    const err = await loadServerDefinitions(request({ adhoc: [{ kind, value }] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmartError);
    expect((err as SmartError).code).toBe('BAD_FLAG');
    expect((err as SmartError).message).toContain(flag);
  });
});

describe('no servers anywhere', () => {
  it('returns an empty list with every searched location (callers decide about NO_SERVERS)', async () => {
    const r = await loadServerDefinitions(request());
    expect(r.servers).toEqual([]);
    expect(r.searched.length).toBe(20);
    expect(r.searched.every((s) => !s.found)).toBe(true);
    expect(r.config).toEqual({});
  });
});

describe('warnings for unset variables (secrets, a Claude Code .mcp.json)', () => {
  it('names the server and variable once, and leaves the server out as Claude Code refuses it', async () => {
    const file = join(CONFIGS('secrets'), '.mcp.json');
    const r = await loadServerDefinitions(request({ cwd: CONFIGS('secrets') }));
    const refused = (server: string, v: string): string =>
      `server "${server}" (${file}): \${${v}} is not set and has no default: Claude Code refuses this server's config.`;
    expect(r.warnings).toEqual([
      refused('secretive', 'SECRET_ARG_TOKEN'),
      refused('secretive', 'SECRET_ENV_TOKEN'),
      refused('secret-remote', 'SECRET_URL_KEY'),
      refused('secret-remote', 'SECRET_HEADER_TOKEN'),
    ]);
    expect(r.servers.map((s) => [s.name, s.enabled])).toEqual([
      ['secretive', false],
      ['secret-remote', false],
    ]);
    expect(r.servers[0]?.notLoaded).toBe(
      "${SECRET_ARG_TOKEN} is not set and has no default: Claude Code refuses this server's config.",
    );
  });
});
