// Gemini's own `oauth` block (MCPOAuthConfig of @google/gemini-cli-core 0.61.0) is read, not rejected as
// unknown keys; our keys are taken from it, Gemini's flow settings are left to Gemini.
import { describe, expect, it } from 'vitest';
import { normalizeServerEntry } from '../../src/core/config/server-entry.js';

const GEMINI_BLOCK = {
  enabled: true,
  clientId: 'my-client',
  authorizationUrl: 'https://auth.example.test/authorize',
  issuer: 'https://auth.example.test',
  tokenUrl: 'https://auth.example.test/token',
  scopes: ['read'],
  audiences: ['api'],
  redirectUri: 'http://localhost:7777/oauth/callback',
  tokenParamName: 'access_token',
  registrationUrl: 'https://auth.example.test/register',
};
const entry = { httpUrl: 'https://mcp.example.test/mcp', oauth: GEMINI_BLOCK };

describe("Gemini's oauth block", () => {
  it('is accepted whole in a Gemini settings file, keeping our keys', () => {
    const s = normalizeServerEntry('secure', entry, ['mcpServers', 'secure'], 'settings.json', 'gemini');
    expect(s.oauth).toEqual({ clientId: 'my-client', scopes: ['read'] });
  });

  it('is accepted in a file of no known client (read permissively)', () => {
    const s = normalizeServerEntry(
      'secure',
      { url: entry.httpUrl, oauth: GEMINI_BLOCK },
      ['mcpServers', 'secure'],
      'x.json',
      undefined,
    );
    expect(s.oauth).toEqual({ clientId: 'my-client', scopes: ['read'] });
  });

  it("is an unknown key in another client's file, named with its key path", () => {
    expect(() =>
      normalizeServerEntry(
        'secure',
        { url: entry.httpUrl, oauth: GEMINI_BLOCK },
        ['mcpServers', 'secure'],
        '.mcp.json',
        'claude-code',
      ),
    ).toThrow(/mcpServers\.secure\.oauth\.enabled/);
  });
});
