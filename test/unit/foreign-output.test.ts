// What a dependency prints, as it may be shown (foreign-output.ts): redacted, an HTML page reduced, cut.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PIECE, foreignText } from '../../src/process/foreign-output.js';
import { rememberSecrets, resetSecrets } from '../../src/process/secrets.js';

afterEach(() => resetSecrets());

describe('foreignText', () => {
  it('hides known values, credential pairs and bearer tokens', () => {
    rememberSecrets({ all: ['known-value-1234'], strong: ['known-value-1234'] });
    const out = foreignText(
      'warn: known-value-1234 refresh_token=r-abc123def456 {"access_token": "a-xyz789"} Bearer b-0123456789',
    );
    for (const leak of ['known-value-1234', 'r-abc123def456', 'a-xyz789', 'b-0123456789'])
      expect(out).not.toContain(leak);
    expect(out).toContain('refresh_token=***');
    expect(out.endsWith('\n')).toBe(true);
  });

  it('reduces an HTML page to its title and size and cuts a long piece', () => {
    const page = `<!DOCTYPE html><html><head><title>Oops</title></head><body>${'x'.repeat(100_000)}</body></html>`;
    const out = foreignText(`Raw body: ${page}`);
    expect(out).toBe(`Raw body: [an HTML page of ${page.length} characters titled "Oops"]\n`);
    const long = foreignText('y '.repeat(5_000));
    expect(long.length).toBeLessThan(MAX_PIECE + 100);
    expect(long).toContain('(10000 characters from a dependency; cut by mcp-smart)');
  });
});
