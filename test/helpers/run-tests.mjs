// Runs vitest, then prints the plain closing line "N passed, N failed, N skipped" that CI reads.
// Vitest's own summary is printed first; the line here must be the last one, so it is printed after
// vitest exits, from its JSON report. Exits with vitest's exit code.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-tests-'));
const report = join(dir, 'report.json');
const vitest = join('node_modules', 'vitest', 'vitest.mjs');
const result = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
let code = result.status ?? 1;
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
