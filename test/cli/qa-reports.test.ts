// QA pass: what the human-readable reports say when some servers could not be reached.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';

const FAILED = fixture('snapshots', 'audit-failed.json'); // clock (ok, 2 tools) + broken (error)

describe('audit headline with an unreachable server', () => {
  it('table: counts only the servers that answered and says how many failed', async () => {
    const r = await runCli(['--snapshot', FAILED, 'audit']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(
      'Tool context: 121 tokens for 2 tools on 1 of 2 servers (1 failed) — 0.1% of a 200,000-token window',
    );
  });

  it('markdown: the same wording', async () => {
    const r = await runCli(['--snapshot', FAILED, 'audit', '--format', 'markdown']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(
      '**121 tokens** for 2 tools on 1 of 2 servers (1 failed): 0.1% of a 200,000-token window.',
    );
  });
});

describe('--help reads well', () => {
  it("a command's help lists the global options its examples use", async () => {
    const r = await runCli(['audit', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Global Options:');
    expect(r.stdout).toMatch(/--snapshot <file>/);
    expect(r.stdout).toMatch(/--json/);
    expect(r.stdout).toContain('Examples:');
  });

  it('the top-level help ends with examples', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('mcp-smart --demo audit');
  });
});

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
