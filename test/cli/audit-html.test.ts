import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';

let dir: string;
const SNAP = fixture('snapshots', 'audit-findings.json');
const cli = (argv: string[]) => runCli(argv, { cwd: dir, env: { NO_COLOR: '1', HOME: dir } });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-smart-audit-html-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('audit --html', () => {
  it('writes the page beside the usual output, with a cell per tool and a row per finding', async () => {
    const r = await cli(['--snapshot', SNAP, 'audit', '--html', 'out/report.html', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { totals: { toolCount: number }; findings: unknown[] };
    expect(r.stderr).toBe('HTML report written to out/report.html\n');
    const html = await readFile(join(dir, 'out', 'report.html'), 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.match(/<rect class="cell"/g)).toHaveLength(doc.totals.toolCount);
    expect(html.match(/<tr><td><span class="sev /g)).toHaveLength(
      doc.findings.length + new Set((doc.findings as { code: string }[]).map((f) => f.code)).size,
    );
    // The long server name is escaped text, and nothing is fetched from anywhere.
    expect(html).toContain('a-server-with-a-rather-long-descriptive-name');
    expect(html).not.toMatch(/<script|<link|src=|https?:/);
  });

  it('names the file when it cannot be written (exit 2), and writes nothing half', async () => {
    await writeFile(join(dir, 'blocker'), 'a file, not a folder');
    const r = await cli(['--snapshot', SNAP, 'audit', '--html', 'blocker/report.html']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('blocker/report.html');
  });
});
