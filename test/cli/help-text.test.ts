// --help reads well: examples, option groups.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';

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
