// Runs vitest, then prints the plain closing line "N passed, N failed, N skipped" that CI reads.
// Vitest's own summary is printed first; the line here must be the last one, so it is printed after
// vitest exits, from its JSON report. Exits with vitest's exit code. The JSON report lives in a folder deleted at
// the end, so vitest's "JSON report written to …" line is left out of the output.
// MCP_SMART_WRITE_DURATIONS=1 also writes each file's duration into test/durations.json (the order the next runs
// start the files in: test/helpers/longest-first.ts); files this run did not run keep their figure, deleted ones go.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

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
  if (process.env.MCP_SMART_WRITE_DURATIONS === '1') writeDurations(doc);
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

/** Merges this run's per-file durations (ms, to 100 ms) into test/durations.json, longest first; atomic write. */
function writeDurations(doc) {
  const file = join('test', 'durations.json');
  let known = {};
  try {
    known = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    /* a first run: no figures yet */
  }
  for (const f of doc.testResults ?? []) {
    const path = relative(process.cwd(), f.name).split('\\').join('/');
    if (f.endTime > f.startTime) known[path] = Math.round((f.endTime - f.startTime) / 100) * 100;
  }
  const entries = Object.entries(known)
    .filter(([path]) => existsSync(path))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  writeFileSync(`${file}.tmp`, JSON.stringify(Object.fromEntries(entries), null, 2) + '\n');
  renameSync(`${file}.tmp`, file);
  process.stdout.write(`durations of ${entries.length} test files written to ${file}\n`);
}
