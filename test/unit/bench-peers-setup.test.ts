// bench/helpers/peers-setup.mjs: the configs bench/peers.mjs writes for each peer in front of the same servers, and
// how it finds the peers in its own cache folder (issue 40.5). No network: the "installed" peers are folders made here.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  findPeers,
  hubConfig,
  hubMarketplaceCache,
  installArgs,
  kdlString,
  peersDir,
  slopKdl,
  smartConfig,
  tinyServers,
  writeConfigs,
} from '../../bench/helpers/peers-setup.mjs';

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'mcp-smart-peers-setup-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const server = {
  name: 'notes',
  command: '/usr/bin/node',
  args: ['/srv/catalog-server.mjs', 'C:\\cats\\tiny.json', '--tag', 'say "hi"'],
  env: { TOKEN: 'a b' },
};

describe('slopKdl', () => {
  it('writes the block `slop-mcp mcp add` writes, quotes and backslashes escaped', () => {
    // The form slop-mcp 0.15.0 itself wrote for `mcp add notes /usr/bin/node … -e TOKEN=…` (type, command, args, env).
    expect(slopKdl([server])).toBe(
      [
        'mcp "notes" {',
        '    type "stdio"',
        '    command "/usr/bin/node"',
        '    args "/srv/catalog-server.mjs" "C:\\\\cats\\\\tiny.json" "--tag" "say \\"hi\\""',
        '    env {',
        '        "TOKEN" "a b"',
        '    }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('writes one block per server and leaves out empty args and env', () => {
    const kdl = slopKdl([
      { name: 'a', command: 'x', args: [] },
      { name: 'b', command: 'y', args: ['1'] },
    ]);
    expect(kdl).toBe(
      'mcp "a" {\n    type "stdio"\n    command "x"\n}\nmcp "b" {\n    type "stdio"\n    command "y"\n    args "1"\n}\n',
    );
  });

  it('refuses a control character instead of writing a string slop-mcp would read differently', () => {
    expect(() => kdlString('line\nbreak')).toThrow(/control character/);
    expect(kdlString('plain')).toBe('"plain"');
  });
});

describe('hubConfig and smartConfig', () => {
  it('name the same servers with the same command, args and env', () => {
    const expected = { mcpServers: { notes: { command: server.command, args: server.args, env: server.env } } };
    expect(hubConfig([server])).toEqual(expected);
    expect(smartConfig([server])).toEqual(expected);
  });

  it('refuses a value mcp-hub would resolve as a ${…} placeholder', () => {
    expect(() => hubConfig([{ name: 'a', command: 'x', args: ['${HOME}/y'] }])).toThrow(/placeholder/);
    expect(smartConfig([{ name: 'a', command: 'x', args: ['${HOME}/y'] }]).mcpServers.a?.args).toEqual(['${HOME}/y']);
  });

  it('writes all three files for the tiny fixture servers', () => {
    const d = temp();
    const paths = writeConfigs(d, tinyServers('/repo', 3, '/bin/node'));
    const hub = JSON.parse(readFileSync(paths.hub, 'utf8')) as ReturnType<typeof hubConfig>;
    expect(Object.keys(hub.mcpServers)).toEqual(['s0', 's1', 's2']);
    expect(hub.mcpServers.s2?.args).toEqual([
      '/repo/fixtures/servers/catalog-server.mjs',
      '/repo/fixtures/servers/catalogs/tiny.json',
    ]);
    expect(JSON.parse(readFileSync(paths.smart, 'utf8'))).toEqual(hub);
    expect(readFileSync(paths.slop, 'utf8').match(/^mcp "s\d" \{$/gm)).toEqual([
      'mcp "s0" {',
      'mcp "s1" {',
      'mcp "s2" {',
    ]);
  });

  it('seeds a marketplace cache mcp-hub counts as fresh (servers listed, fetched now)', () => {
    const c = hubMarketplaceCache(1000);
    expect(c.lastFetchedAt).toBe(1000);
    expect(c.registry.servers.length).toBeGreaterThan(0);
  });
});

describe('peersDir, installArgs and findPeers', () => {
  it('installs under MCP_SMART_CACHE_DIR, else ~/.cache/mcp-smart-bench, pinned versions only', () => {
    expect(peersDir({ MCP_SMART_CACHE_DIR: '/c' }, '/h')).toBe('/c/peers');
    expect(peersDir({}, '/h')).toBe('/h/.cache/mcp-smart-bench/peers');
    expect(installArgs('/c/peers')).toEqual([
      'install',
      '--prefix',
      '/c/peers',
      '--no-audit',
      '--no-fund',
      '@standardbeagle/slop-mcp@0.15.0',
      'mcp-hub@4.2.1',
      'mcp-proxy@6.7.19',
    ]);
  });

  it('reports what is missing, a wrong version by name, an optional peer as skipped, and finds a pinned one', () => {
    const d = temp();
    expect(findPeers(d)).toEqual({
      found: {},
      missing: ['@standardbeagle/slop-mcp@0.15.0', 'mcp-hub@4.2.1'],
      skipped: ['mcp-proxy@6.7.19'],
    });
    const slop = join(d, 'node_modules', '@standardbeagle', 'slop-mcp');
    const hub = join(d, 'node_modules', 'mcp-hub');
    mkdirSync(slop, { recursive: true });
    mkdirSync(join(hub, 'dist'), { recursive: true });
    writeFileSync(join(slop, 'package.json'), JSON.stringify({ version: '0.15.0' }));
    writeFileSync(join(slop, 'index.js'), '');
    writeFileSync(join(hub, 'package.json'), JSON.stringify({ version: '4.3.0' }));
    writeFileSync(join(hub, 'dist', 'cli.js'), '');
    expect(findPeers(d)).toEqual({
      found: { slop: { root: slop, version: '0.15.0' } },
      missing: ['mcp-hub@4.2.1 (found 4.3.0)'],
      skipped: ['mcp-proxy@6.7.19'],
    });
  });
});
