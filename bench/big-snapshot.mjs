#!/usr/bin/env node
// Writes a big snapshot for the scale measurement of a fresh `discover` (issue 40 item 4): N copies of the
// 2,781 real tools of servers-111, each copy with its own server names and lightly varied descriptions.
// Usage: node bench/big-snapshot.mjs OUT.json [copies=36] — data is generated, never committed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [out, copiesArg = '36'] = process.argv.slice(2);
if (!out) {
  process.stderr.write('usage: node bench/big-snapshot.mjs OUT.json [copies]\n');
  process.exit(2);
}
const data = process.env.MCP_SMART_BENCH_DATA ?? '/work/shared/data';
const source = JSON.parse(readFileSync(join(data, 'servers-111', 'catalog.snapshot.json'), 'utf8'));
const copies = Number(copiesArg);
// A few words appended by copy so the copies' texts (and their index rows) are not all identical.
const extra = ['', ' Works with teams.', ' Returns JSON.', ' Fast.', ' Uses the v2 API.', ' Paginated.'];
const servers = [];
for (let c = 0; c < copies; c++) {
  for (const s of source.servers) {
    const name = c === 0 ? s.name : `${s.name}-c${c}`;
    const tools = (s.tools ?? []).map((t, i) => ({
      ...t,
      description: `${t.description ?? ''}${extra[(c + i) % extra.length]}`,
    }));
    servers.push({ ...s, name, tools });
  }
}
writeFileSync(out, JSON.stringify({ ...source, servers }));
const count = servers.reduce((n, s) => n + (s.tools?.length ?? 0), 0);
process.stdout.write(`${out}: ${servers.length} servers, ${count} tools\n`);
