// Runs vitest, then prints the plain closing line "N passed, N failed, N skipped" that CI reads.
// Vitest's own summary is printed first; the line here must be the last one, so it is printed after
// vitest exits, from its JSON report. Exits with vitest's exit code. The JSON report lives in a folder deleted at
// the end, so vitest's "JSON report written to …" line is left out of the output.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-tests-'));
const report = join(dir, 'report.json');
const vitest = join('node_modules', 'vitest', 'vitest.mjs');
const child = spawn(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  {
    stdio: ['inherit', 'pipe', 'inherit'],
    // stdout is a pipe now; keep vitest's colours when ours is a terminal.
    env: process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1', ...process.env } : process.env,
  },
);
let pending = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  const lines = (pending + chunk).split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) if (!line.includes('JSON report written to')) process.stdout.write(line + '\n');
});
const status = await new Promise((resolve) => child.on('close', (c) => resolve(c)));
if (pending && !pending.includes('JSON report written to')) process.stdout.write(pending);
let code = status ?? 1;
try {
  const doc = JSON.parse(readFileSync(report, 'utf8'));
  const failedFiles = (doc.testResults ?? []).filter(
    (f) => f.status === 'failed' && f.assertionResults.length === 0,
  ).length;
  const skipped = (doc.numPendingTests ?? 0) + (doc.numTodoTests ?? 0);
  process.stdout.write(
    `\n${doc.numPassedTests} passed, ${doc.numFailedTests + failedFiles} failed, ${skipped} skipped\n`,
  );
  if (doc.numTotalTests === 0) code = code || 1;
} catch (e) {
  process.stdout.write(`\nno test report was written (${e.message})\n`);
  code = code || 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
