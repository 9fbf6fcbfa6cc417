// Issue 36's journey as figures: runs test/e2e/journey-{claude,gemini,codex}.test.ts (the real client CLIs, offline,
// each in its own temporary HOME; see test/helpers/journey.ts) and prints, per client, the tools and tool tokens
// (o200k_base, the definitions as the client sends them) the model receives before adopt and after the printed
// switch. The figures are the lines the tests themselves print ("journey <client>: direct …; after adopt …").
// Usage: npm run build && node bench/journey.mjs [claude|gemini|codex …]
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const wanted = process.argv.slice(2);
const clients = wanted.length > 0 ? wanted : ['claude', 'gemini', 'codex'];

function run(client) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join('test', 'helpers', 'run-tests.mjs'), join('test', 'e2e', `journey-${client}.test.ts`)],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d.toString()));
    child.stderr.on('data', (d) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

const rows = [];
for (const client of clients) {
  const started = Date.now();
  const { code, out } = await run(client);
  const line = out.split('\n').find((l) => l.startsWith(`journey ${client}: direct `));
  const m = line && /direct (\d+) tools, (\d+) tokens; after adopt (\d+) tools, (\d+) tokens/.exec(line);
  rows.push({
    client,
    passed: code === 0,
    seconds: Math.round((Date.now() - started) / 1000),
    ...(m ? { directTools: +m[1], directTokens: +m[2], afterTools: +m[3], afterTokens: +m[4] } : {}),
  });
  if (!m) process.stderr.write(`${client}: no figures printed (exit ${code})\n${out.slice(-3000)}\n`);
}
console.log(
  '| client | tools direct | tokens direct | tools after adopt | tokens after adopt | change | test | wall |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |');
for (const r of rows) {
  const change = r.directTokens ? `${(((r.afterTokens - r.directTokens) / r.directTokens) * 100).toFixed(1)} %` : '–';
  console.log(
    `| ${r.client} | ${r.directTools ?? '–'} | ${r.directTokens ?? '–'} | ${r.afterTools ?? '–'} | ${r.afterTokens ?? '–'} | ${change} | ${r.passed ? 'passed' : 'FAILED'} | ${r.seconds} s |`,
  );
}
process.exitCode = rows.every((r) => r.passed) ? 0 : 1;
