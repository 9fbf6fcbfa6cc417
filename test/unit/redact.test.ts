// Which configured values count as secrets in our own output: by where they come from (a credential's name,
// a header, a URL's user-info or query, a token-like value), and never a plain word or number.
import { describe, expect, it } from 'vitest';
import { isSecretName, redactFreeText } from '../../src/process/redact.js';
import { intentMemoryText } from '../../src/core/session/usage.js';
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
    'session_id',
    'sessionToken',
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
    'session-idle',
    'TOKEN_LIMIT',
    'SESSION_MAX_AGE',
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

  it('a variable kept as written in a header (not set) is a name, not a secret: the warning about it names it', () => {
    const def = {
      name: 'g2',
      transport: 'http',
      url: 'https://example.com/mcp',
      headers: { Authorization: 'Bearer $GTOKEN', 'X-Key': '${GKEY}' },
    } as unknown as ServerDefinition;
    const v = secretValuesOf([def]);
    expect(v.strong).not.toContain('$GTOKEN');
    expect(v.strong).not.toContain('${GKEY}');
    expect(v.strong).toContain('Bearer $GTOKEN');
  });

  it('an env variable kept as written (not set) is the name to set, not a secret; a look-alike literal is one', () => {
    const gemini = { ...stdio({ GITHUB_TOKEN: '$GITHUB_PAT', DB_PASSWORD: '$ecretPassw0rd' }), name: 'gh' };
    const v = secretValuesOf([gemini], {}, { gh: ['GITHUB_PAT'] });
    expect(v.all).not.toContain('$GITHUB_PAT');
    expect(v.strong).not.toContain('$GITHUB_PAT');
    expect(v.strong).toContain('$ecretPassw0rd');
    const claude = { ...stdio({ GITHUB_TOKEN: '${GH_PAT}' }), name: 'cc' };
    expect(secretValuesOf([claude], {}, { cc: ['GH_PAT'] }).all).toEqual([]);
  });

  it("a secret flag's value in args is a secret (a server that echoes its command line does not show it)", () => {
    const def = {
      ...stdio({}),
      args: ['--password', 'CorrectHorseBattery', '--token=mysecrettokenvalue', '--db', 'app', '--api-key', '${K}'],
    } as ServerDefinition;
    const v = secretValuesOf([def]);
    expect(v.strong).toEqual(['CorrectHorseBattery', 'mysecrettokenvalue']);
  });
});

describe('credentials in free text (remembered intents, serve --record)', () => {
  // Tokens with nothing naming them were stored verbatim: only URL credentials and `name=value` pairs were caught.
  it.each([
    ['GitHub classic', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['GitHub OAuth', 'gho_16C7e42F292c6912E7710c838347Ae178B4a'],
    ['GitHub fine-grained', 'github_pat_11ABCDEFG0abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL'],
    ['Anthropic', 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
    ['OpenAI', 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34'],
    ['Slack', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx'],
    ['AWS access key id', 'AKIAIOSFODNN7EXAMPLE'],
    ['Google API key', 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'],
    ['JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
    ['unnamed random key', 'Zx9Kq2Lm7Np4Rt8Vw3Yb6Hc1Jd5Fg0Ss'],
  ])('%s is redacted, the words around it kept', (_kind, token) => {
    const text = `read the repo with ${token} please`;
    expect(redactFreeText(text)).toBe('read the repo with *** please');
    expect(intentMemoryText(text)).toBe('read the repo with *** please');
  });

  it('Bearer tokens and known secret values are redacted as in every other output', () => {
    expect(redactFreeText('call it with Bearer abc.def-123456 now')).toBe('call it with Bearer *** now');
    expect(redactFreeText('use hunter2pass here', ['hunter2pass'])).toBe('use *** here');
  });

  it.each([
    'list the 20 newest GitHub issues in repo foo/bar',
    'open src/components/HeaderNavigation2/index.tsx and fix the sk-learn import',
    'revert createOrUpdateRepositorySecret2 in reports/2025-01-15/quarterly-summary-final',
    'ask about the task-based skill set for AKIA docs',
    'read ./dist/bundle/cli.js and ~/notes/2025-09-01-meeting-notes-draft.md',
  ])('ordinary text is unchanged: %s', (text) => {
    expect(redactFreeText(text)).toBe(text);
    expect(intentMemoryText(text)).toBe(text);
  });

  // Survived into usage.json and discover --explain: a credential's name with a space, `is` or `pw:` before the
  // value, and base64 keys with few digits (the AWS example secret key; about 11 % of random 40-character keys).
  it.each([
    ['pw: correct-horse-battery-staple', 'pw: ***'],
    ['my password is Tr0ub4dor&3horse', 'my password is ***'],
    ['connect with --password hunter22 please', 'connect with --password *** please'],
    ['passwd hunter2', 'passwd ***'],
    ['token 1234abcd5678efgh9012ijkl', 'token ***'],
    ['my password is hunter2.', 'my password is ***.'],
    ["the client secret is 'M@xSecret!', thanks", "the client secret is '***', thanks"],
    ['set DB_PASSWORD=Tr0ub4dor&3horse now', 'set DB_PASSWORD=*** now'],
    ['aws secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ok', 'aws secret *** ok'],
  ])('%s is redacted', (text, expected) => {
    expect(redactFreeText(text)).toBe(expected);
    expect(intentMemoryText(text)).toBe(expected);
  });

  it('random 40-character base64 keys are redacted, nearly all of them', () => {
    const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    let seed = 42;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    let hidden = 0;
    for (let i = 0; i < 2000; i++) {
      let key = '';
      for (let c = 0; c < 40; c++) key += B64[(next() >>> 16) % 64];
      if (redactFreeText(`use ${key} now`) === 'use *** now') hidden++;
    }
    expect(hidden / 2000).toBeGreaterThan(0.96);
  });

  it.each([
    'reset my password',
    'reset my password for user bob42',
    'create a token for the CI',
    'list tokens',
    'list tokens created in 2024',
    'my password is incorrect',
    'the password is case-sensitive',
    'what is my token limit',
    'password: reset',
    'read the token from ./secrets/token.txt',
    'open https://example.com/docs/tokens',
    'call getApiToken2 with scope repo',
    'call createPersonalAccessToken for 3 users',
    'token usage by model gpt-4o',
    'set the header to ${API_TOKEN} and --token=${FS_TOKEN}',
    'the run used 807 tokens (o200k_base)',
    'read packages/frontend/src/components/HeaderNavigation2/NavigationMenu',
    'see org/docs/Web/API/AudioParam/exponentialRampToValueAtTime',
    'rename getBpeRankFromString/bytePairEncode/bytePairMerge/getBpeRankFromBytes',
  ])('ordinary text is unchanged: %s', (text) => {
    expect(redactFreeText(text)).toBe(text);
  });
});
