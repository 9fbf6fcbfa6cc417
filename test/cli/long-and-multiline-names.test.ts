// A tool name of 600 characters holding newlines: tables cut it with an ellipsis, --json keeps it whole, and the
// GitHub step summary keeps each failure on one list item.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

let dir: string;
beforeEach(() => void (dir = tempDir('mcp-smart-long-names-')));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const name = `${'x'.repeat(300)}\nsecond line\n${'y'.repeat(300)}`;
const snapshot = (description: string): string => {
  const file = join(dir, `s${description.length}.json`);
  const tools = [{ name, description, inputSchema: { type: 'object' } }];
  writeFileSync(
    file,
    JSON.stringify({
      format: 'mcp-smart/snapshot@1',
      createdAt: 'x',
      servers: [{ name: 's', transport: 'stdio', status: 'ok', tools }],
    }),
  );
  return file;
};

describe('long and multi-line tool names', () => {
  it('tables cut the name, --json keeps it, the step summary keeps each failure on one line', async () => {
    const summary = join(dir, 'summary.md');
    const env = { NO_COLOR: '1', HOME: dir, GITHUB_STEP_SUMMARY: summary };
    const cli = (argv: string[]) => runCli(argv, { cwd: dir, env });
    expect((await cli(['--snapshot', snapshot('short'), 'check', '--update'])).code).toBe(0);
    const grown = snapshot('much longer now '.repeat(40));
    const table = await cli(['--snapshot', grown, 'check']);
    expect(table.code).toBe(1);
    expect(table.stdout).toContain('…');
    for (const line of table.stdout.split('\n').filter((l) => l.startsWith('│'))) expect(line.length).toBeLessThan(200);
    const audit = await cli(['--snapshot', grown, 'audit']);
    for (const line of audit.stdout.split('\n').filter((l) => l.startsWith('│'))) expect(line.length).toBeLessThan(200);
    const json = await cli(['--snapshot', grown, 'check', '--json']);
    expect((JSON.parse(json.stdout) as { changes: { id: string }[] }).changes[0]?.id).toBe(`s.${name}`);
    const github = await cli(['--snapshot', grown, 'check', '--format', 'github']);
    expect(github.code).toBe(1);
    const lines = readFileSync(summary, 'utf8').split('\n');
    const bullet = lines.findIndex((l) => l.startsWith('- **TOTAL_GROWTH**'));
    expect(bullet).toBeGreaterThan(-1);
    expect(lines[bullet]).toContain('second line');
    expect(lines.filter((l) => l.startsWith('second line') || l.startsWith('y'))).toEqual([]);
  });
});
