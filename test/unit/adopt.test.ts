// adopt's file generation (pure): references kept, literals replaced by named variables (never the value),
// Codex header variables and env_vars as references, filters under the keys serve reads, name collisions prefixed.
import { describe, expect, it } from 'vitest';
import { adoptEntries, writtenVariables } from '../../src/core/adopt/config-entries.js';
import type { RawServer } from '../../src/core/config/server-entry.js';
import type { ServerDefinition } from '../../src/core/types.js';

const def = (name: string, over: Partial<ServerDefinition> = {}): ServerDefinition => ({
  name,
  transport: 'stdio',
  enabled: true,
  source: '/h/.claude.json',
  scope: 'user',
  client: 'claude-code',
  ...over,
});
const raw = (name: string, over: Partial<RawServer> = {}): RawServer => ({
  name,
  transport: 'stdio',
  autoTransport: false,
  enabled: true,
  warnings: [],
  command: 'node',
  ...over,
});

/** What is written and listed: the secrets adopt replaced are only for the write-time scrub. */
const shown = (out: ReturnType<typeof adoptEntries>): string =>
  JSON.stringify({ servers: out.servers, variables: out.variables });

describe('adoptEntries', () => {
  it('names from servers that start with a digit are valid variables, one per server, deterministic', () => {
    const args = ['--password', 'literal-pw'];
    const inputs = ['1srv', 'mcp-1srv', '2fa'].map((n) => ({
      def: def(n),
      raw: raw(n, { args, env: { TOKEN: `literal-${n}` } }),
    }));
    const out = adoptEntries(inputs);
    const names = out.variables.map((v) => `${v.server} ${v.key} ${v.variable}`);
    expect(names).toEqual([
      '1srv args[1] MCP_1SRV_PASSWORD',
      '1srv env.TOKEN TOKEN',
      '2fa args[1] MCP_2FA_PASSWORD',
      '2fa env.TOKEN MCP_2FA_TOKEN',
      'mcp-1srv args[1] MCP_1SRV_PASSWORD_2',
      'mcp-1srv env.TOKEN MCP_1SRV_TOKEN',
    ]);
    for (const v of out.variables) expect(v.variable).toMatch(/^[A-Z_][A-Z0-9_]*$/);
    expect(adoptEntries([...inputs].reverse()).variables).toEqual(out.variables);
  });

  it('keeps references, replaces literals, and prefixes a variable another server already stands for', () => {
    const out = adoptEntries([
      { def: def('b'), raw: raw('b', { env: { TOKEN: 'literal-b' } }) },
      { def: def('a'), raw: raw('a', { env: { TOKEN: 'literal-a', HOME_DIR: '${HOME}', X: '${env:X}' } }) },
    ]);
    expect(out.servers).toEqual({
      a: { command: 'node', env: { HOME_DIR: '${HOME}', TOKEN: '${TOKEN}', X: '${env:X}' } },
      b: { command: 'node', env: { TOKEN: '${B_TOKEN}' } },
    });
    expect(out.variables).toEqual([
      { server: 'a', key: 'env.TOKEN', variable: 'TOKEN' },
      { server: 'b', key: 'env.TOKEN', variable: 'B_TOKEN' },
    ]);
    expect(shown(out)).not.toContain('literal-');
  });

  it('a plain value stays a value; only a secret (by name or by shape) becomes a variable', () => {
    const out = adoptEntries([
      {
        def: def('memory'),
        raw: raw('memory', {
          env: {
            MEMORY_FILE_PATH: '/home/me/graph.json',
            LOG_LEVEL: 'debug',
            GITHUB_TOKEN: 'plain-but-named-secret',
            SOME_SETTING: 'ghp_1234567890abcdefghij',
            DATA_DIR: '${HOME}/data',
          },
        }),
      },
      {
        def: def('remote', { transport: 'http' }),
        raw: raw('remote', {
          transport: 'http',
          command: undefined,
          url: 'https://x.example/mcp',
          headers: { 'X-Client-Name': 'my-laptop', Authorization: 'Bearer abc-123-def-456' },
        }),
      },
    ]);
    expect(out.servers.memory!.env).toEqual({
      DATA_DIR: '${HOME}/data',
      GITHUB_TOKEN: '${GITHUB_TOKEN}',
      LOG_LEVEL: 'debug',
      MEMORY_FILE_PATH: '/home/me/graph.json',
      SOME_SETTING: '${SOME_SETTING}',
    });
    expect(out.servers.remote!.headers).toEqual({ Authorization: '${REMOTE_TOKEN}', 'X-Client-Name': 'my-laptop' });
    expect(out.variables.map((v) => v.variable)).toEqual(['GITHUB_TOKEN', 'SOME_SETTING', 'REMOTE_TOKEN']);
    expect(shown(out)).not.toMatch(/plain-but-named-secret|ghp_|abc-123/);
  });

  it('Codex: env_vars and bearer_token_env_var become references; filters become includeTools/excludeTools', () => {
    const out = adoptEntries([
      {
        def: def('gh', {
          client: 'codex',
          transport: 'http',
          toolFilter: { include: ['a', 'b'], exclude: ['b'], keys: [] },
        }),
        raw: raw('gh', {
          transport: 'http',
          command: undefined,
          url: 'https://api.example.com/mcp',
          headerVars: { Authorization: { prefix: 'Bearer ', variable: 'GH_PAT' } },
        }),
      },
      { def: def('local', { client: 'codex' }), raw: raw('local', { envVars: ['PATH_EXTRA'] }) },
    ]);
    expect(out.servers).toEqual({
      gh: {
        type: 'http',
        url: 'https://api.example.com/mcp',
        headers: { Authorization: 'Bearer ${GH_PAT}' },
        includeTools: ['a', 'b'],
        excludeTools: ['b'],
      },
      local: { command: 'node', env: { PATH_EXTRA: '${PATH_EXTRA}' } },
    });
    expect(out.variables).toEqual([]);
  });

  it('a URL with credentials or a query is written as a variable, never as written', () => {
    const out = adoptEntries([
      {
        def: def('r', { transport: 'http' }),
        raw: raw('r', { transport: 'http', command: undefined, url: 'https://u:pw-secret@x.example/mcp?key=k-secret' }),
      },
    ]);
    expect(out.servers).toEqual({ r: { type: 'http', url: '${R_URL}' } });
    expect(out.variables).toEqual([{ server: 'r', key: 'url', variable: 'R_URL' }]);
    expect(shown(out)).not.toContain('secret');
  });

  it('Gemini: bare $VAR becomes ${VAR}; a URL server without type stays without type', () => {
    const out = adoptEntries([
      {
        def: def('g', { client: 'gemini', transport: 'http' }),
        raw: raw('g', { transport: 'http', autoTransport: true, command: undefined, url: 'https://x/$PATH_PART' }),
      },
      { def: def('s', { client: 'gemini' }), raw: raw('s', { args: ['--dir', '$HOME/work'], env: { K: '$KEY' } }) },
    ]);
    expect(out.servers).toEqual({
      g: { url: 'https://x/${PATH_PART}' },
      s: { command: 'node', args: ['--dir', '${HOME}/work'], env: { K: '${KEY}' } },
    });
  });
});

describe('adoptEntries: arguments', () => {
  it('the value of a secret flag becomes a variable (--flag value and --flag=value); other arguments stay as written', () => {
    const args = [
      '-y',
      '@acme/mcp',
      '--org',
      'my-company',
      '--api-key',
      'sk-proj-a1b2c3d4e5f6',
      '--token=ghp_x1y2z3w4',
    ];
    const more = ['--password', 'hunter2pw', '--no-auth', '/srv/data', '--key-file', '/k.pem', '--secret', '${S}'];
    const out = adoptEntries([{ def: def('fs'), raw: raw('fs', { args: [...args, ...more] }) }]);
    expect(out.servers.fs!.args).toEqual([
      '-y',
      '@acme/mcp',
      '--org',
      'my-company',
      '--api-key',
      '${FS_API_KEY}',
      '--token=${FS_TOKEN}',
      '--password',
      '${FS_PASSWORD}',
      '--no-auth',
      '/srv/data',
      '--key-file',
      '/k.pem',
      '--secret',
      '${S}',
    ]);
    expect(out.variables).toEqual([
      { server: 'fs', key: 'args[5]', variable: 'FS_API_KEY' },
      { server: 'fs', key: 'args[6]', variable: 'FS_TOKEN' },
      { server: 'fs', key: 'args[8]', variable: 'FS_PASSWORD' },
    ]);
    expect(out.secrets).toEqual(['sk-proj-a1b2c3d4e5f6', 'ghp_x1y2z3w4', 'hunter2pw']);
    expect(shown(out)).not.toMatch(/sk-proj|ghp_|hunter2/);
  });

  it('an env name with PASSWORD inside one part (PGPASSWORD) is a secret; Accept and X-Tenant headers are values', () => {
    const out = adoptEntries([
      { def: def('db'), raw: raw('db', { env: { PGPASSWORD: 'pw12', PGUSER: 'me' } }) },
      {
        def: def('api', { transport: 'http' }),
        raw: raw('api', {
          transport: 'http',
          command: undefined,
          url: 'https://api.example.com/mcp',
          headers: { 'X-Tenant': 'my-company', Accept: 'application/json', 'X-Api-Key': 'k-1' },
        }),
      },
    ]);
    expect(out.servers.db!.env).toEqual({ PGPASSWORD: '${PGPASSWORD}', PGUSER: 'me' });
    expect(out.servers.api!.headers).toEqual({
      Accept: 'application/json',
      'X-Api-Key': '${API_X_API_KEY}',
      'X-Tenant': 'my-company',
    });
  });
});

describe('writtenVariables', () => {
  it('names every variable the written entries refer to, in any form and place, once each and sorted', () => {
    expect(
      writtenVariables({
        a: { command: 'node', args: ['${HOME_DIR}/x', 'plain $NOT_OURS'], env: { T: '${TOKEN}', U: '${env:USER_ID}' } },
        b: { url: 'https://x/${PATH_PART:-v1}', headers: { Authorization: 'Bearer ${TOKEN}' } },
        c: { command: 'node' },
      }),
    ).toEqual(['HOME_DIR', 'PATH_PART', 'TOKEN', 'USER_ID']);
    expect(writtenVariables({ c: { command: 'node', args: ['a'] } })).toEqual([]);
  });
});
