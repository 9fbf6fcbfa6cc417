// A stdio relay for bench/client-cost.mjs: started by a client as its MCP server, it starts the real one
// (its own argv) and passes bytes both ways untouched, noting when each chunk passed (µs, monotonic). At exit it
// writes the notes to RELAY_LOG as JSON [direction, µs, bytes][]: "in" from the client, "out" from the server.
// A request's "in" to its answer's "out" is the server's time; an answer's "out" to the next "in" the client's.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const notes = [];
const now = () => Number(process.hrtime.bigint() / 1000n);
const child = spawn(process.execPath, process.argv.slice(2), { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.on('data', (d) => {
  notes.push(['in', now(), d.length]);
  child.stdin.write(d);
});
child.stdout.on('data', (d) => {
  notes.push(['out', now(), d.length]);
  process.stdout.write(d);
});
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code) => {
  writeFileSync(process.env.RELAY_LOG, JSON.stringify(notes));
  process.exit(code ?? 0);
});
