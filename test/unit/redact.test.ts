// Which configured values count as secrets in our own output: by where they come from (a credential's name,
// a header, a URL's user-info or query, a token-like value), and never a plain word or number.
import { describe, expect, it } from 'vitest';
import { isSecretName } from '../../src/process/redact.js';
import { secretValuesOf } from '../../src/core/secret-values.js';
import type { ServerDefinition } from '../../src/core/types.js';

const stdio = (env: Record<string, string>): ServerDefinition =>
  ({ name: 's', transport: 'stdio', command: 'node', args: [], env }) as unknown as ServerDefinition;

describe('isSecretName', () => {
  it.each([
    'GITHUB_TOKEN',
    'API_KEY',
    'apiKey',
    'x-api-key',
    'DB_PASSWORD',
    'CLIENT_SECRET',
    'Authorization',
    'SESSION',
    'PRIVATE_KEY',
    'OPENAI_APIKEY',
    'PGPASSWORD',
    'MYSQL_ROOTPASSWD',
  ])('%s names a credential', (name) => expect(isSecretName(name)).toBe(true));
  it.each([
    'AUTH_MODE',
    'TOKEN_TYPE',
    'KEY_FILE',
    'SECRET_PATH',
    'tokenEndpoint',
    'LOG_LEVEL',
    'OUTPUT_FORMAT',
    'MONKEY_BUSINESS',
    'PASSAGE',
    'PASSWORD_FILE',
  ])('%s does not', (name) => expect(isSecretName(name)).toBe(false));
});

describe('secretValuesOf', () => {
  it('keeps plain words and numbers under a credential name out of the output scrub, but scrubs them from server text', () => {
    const v = secretValuesOf([
      stdio({ API_KEY: 'none', MY_TOKEN: 'object', DB_PASSWORD: 'text', PORT_SECRET: '8080' }),
    ]);
    expect(v.strong).toEqual([]);
    expect(v.all).toEqual(expect.arrayContaining(['none', 'object', 'text', '8080']));
  });

  it('a real credential is a secret by its name, a token by its look, whatever the name', () => {
    const v = secretValuesOf([
      stdio({
        DB_PASSWORD: 'hunter2!',
        AUTH_MODE: 'oauth-device',
        NOTES: 'sk9f8a7d6s5a4f3d2s1a',
        GITHUB_TOKEN: 'Tr0ub4dor',
      }),
    ]);
    expect(v.strong).toEqual(['sk9f8a7d6s5a4f3d2s1a', 'Tr0ub4dor', 'hunter2!']);
  });

  it('header values and URL credentials are secrets; a plain query value such as json is not', () => {
    const def = {
      name: 'web',
      transport: 'http',
      url: 'https://user:pa55word@example.com/mcp?format=json&key=abc123xyz',
      headers: { Authorization: 'Bearer tok-123456' },
    } as unknown as ServerDefinition;
    const v = secretValuesOf([def]);
    expect(v.strong).toEqual(['Bearer tok-123456', 'tok-123456', 'abc123xyz', 'pa55word']);
    expect(v.strong).not.toContain('json');
    expect(v.strong).not.toContain('user');
  });
});
