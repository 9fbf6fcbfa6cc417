// Usage errors under --format json (two words) are JSON documents too.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';

describe('usage errors under --format json (two words) are JSON too', () => {
  it('an unknown option', async () => {
    const r = await runCli(['--format', 'json', 'audit', '--bogus']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ schemaVersion: 1, error: { code: 'USAGE' } });
    expect((JSON.parse(r.stdout) as { error: { message: string } }).error.message).toContain('--bogus');
  });

  it('a bad --encoding choice', async () => {
    const r = await runCli(['--format', 'json', '--encoding', 'foo', 'audit']);
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { message: string } }).error.message).toContain('--encoding');
  });
});
