// Issue 36's journey as figures: runs test/e2e/journey-{claude,gemini,codex}.test.ts in one vitest run (the real client
// CLIs, offline, each in its own temporary HOME, mcp-smart from the packed tarball installed into a temporary prefix —
// packed once for the run; see test/helpers/journey.ts) and records, per client, the tools and tool tokens
// (o200k_base, the definitions as the client sends them) the model receives before adopt and after the printed switch.
// The figures are the lines the tests themselves print ("journey <client>: direct …; after adopt …"). Prints a table
// and appends it, with the machine, its load and the date, to bench/RESULTS.md under "## Journey (bench/journey.mjs)".
// Usage: npm run bench:journey [-- claude|gemini|codex …]   (--no-write: print only)
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = join(REPO, 'bench', 'RESULTS.md');
const HEADING = '## Journey (bench/journey.mjs)';
const CLIENTS = {
  claude: { label: 'Claude Code', pkg: '@anthropic-ai/claude-code' },
  gemini: { label: 'Gemini CLI', pkg: '@google/gemini-cli' },
  codex: { label: 'Codex', pkg: '@openai/codex' },
};

const args = process.argv.slice(2);
const write = !args.includes('--no-write');
const wanted = args.filter((a) => !a.startsWith('--'));
for (const w of wanted)
  if (!(w in CLIENTS)) throw new Error(`unknown client ${w}: choose from ${Object.keys(CLIENTS).join(', ')}`);
const clients = wanted.length > 0 ? wanted : Object.keys(CLIENTS);

const version = (pkg) => {
  try {
    return JSON.parse(readFileSync(join(REPO, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
};

/** One vitest run of the selected journey files: they share the run's one pack and install. */
function runJourneys() {
  return new Promise((resolve) => {
    const files = clients.map((c) => join('test', 'e2e', `journey-${c}.test.ts`));
    const child = spawn(process.execPath, [join('test', 'helpers', 'run-tests.mjs'), ...files], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d.toString()));
    child.stderr.on('data', (d) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** What the run did for one client: its figures line, and the outcome vitest printed for its file. */
function clientRow(client, out) {
  const line = out.split('\n').find((l) => l.startsWith(`journey ${client}: direct `));
  const m = line && /direct (\d+) tools, (\d+) tokens; after adopt (\d+) tools, (\d+) tokens/.exec(line);
  const summary = out.split('\n').find((l) => l.includes(`journey-${client}.test.ts (`)) ?? '';
  const outcome = /failed/.test(summary) ? 'failed' : m ? 'passed' : /skipped/.test(summary) ? 'skipped' : 'failed';
  if (!m) return { client, outcome };
  return { client, outcome, directTools: +m[1], directTokens: +m[2], afterTools: +m[3], afterTokens: +m[4] };
}

function renderTable(rows) {
  const lines = [
    '| client | tools direct | tokens direct | tools after adopt | tokens after adopt | change | test |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of rows) {
    const name = `${CLIENTS[r.client].label} ${version(CLIENTS[r.client].pkg)}`;
    if (r.directTokens === undefined) {
      lines.push(`| ${name} | – | – | – | – | – | ${r.outcome} |`);
      continue;
    }
    const change = `${r.afterTokens >= r.directTokens ? '+' : '−'}${((Math.abs(r.afterTokens - r.directTokens) / r.directTokens) * 100).toFixed(1)} %`;
    lines.push(
      `| ${name} | ${r.directTools} | ${r.directTokens} | ${r.afterTools} | ${r.afterTokens} | ${change} | ${r.outcome} |`,
    );
  }
  return lines.join('\n');
}

/** RESULTS.md with `block` added at the end of the journey section (the section made at the end when missing). */
function appendUnderHeading(text, block) {
  const at = text.indexOf(`\n${HEADING}\n`);
  if (at < 0) {
    const intro =
      'What the model receives before `adopt` and after running exactly what it printed, per client: the three\n' +
      '`test/e2e/journey-*.test.ts` in one run, mcp-smart from the packed tarball installed into a temporary prefix.\n' +
      'Tokens: o200k_base over the tool definitions as the client sends them. Each run below is appended by the script.';
    return `${text.replace(/\n*$/, '\n')}\n${HEADING}\n\n${intro}\n\n${block}\n`;
  }
  const next = text.indexOf('\n## ', at + HEADING.length + 1);
  const end = next < 0 ? text.length : next;
  const section = text.slice(0, end).replace(/\n*$/, '\n');
  return `${section}\n${block}\n${next < 0 ? '' : text.slice(end)}`;
}

const loadBefore = loadavg()[0];
const started = new Date();
const { code, out } = await runJourneys();
const loadAfter = loadavg()[0];
const rows = clients.map((c) => clientRow(c, out));
for (const r of rows) if (r.outcome === 'failed') process.stderr.write(`${r.client}: no figures (test failed)\n`);
if (code !== 0 && rows.every((r) => r.outcome !== 'failed')) process.stderr.write(out.slice(-3000) + '\n');
const table = renderTable(rows);
console.log(table);
const cpu = cpus();
const minutes = Math.round((Date.now() - started.getTime()) / 60_000);
const block =
  `### ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC — ${cpu.length} cores (${cpu[0]?.model.trim() ?? '?'}), ` +
  `load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}, Node ${process.version}, ${minutes} min\n\n${table}`;
if (write) {
  writeFileSync(RESULTS, appendUnderHeading(readFileSync(RESULTS, 'utf8'), block));
  console.log(`\nappended to ${RESULTS}`);
}
process.exitCode = code === 0 && rows.every((r) => r.outcome !== 'failed') ? 0 : 1;
