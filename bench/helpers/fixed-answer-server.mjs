// A stdio JSON-RPC peer for bench/client-cost.mjs that does no work of its own: it answers `initialize` and then
// each `tools/call` at once with fixed bytes, in the envelope and key order serve's stdio wire path writes
// (`{"jsonrpc":"2.0","id":…,"result":{"content":[{"type":"text","text":…}]}}`). Tool `find` answers the texts of
// the JSON array in FIXED_ANSWERS in turn (find_tool answers recorded from serve); any other tool answers "ok".
import { readFileSync } from 'node:fs';

const texts = JSON.parse(readFileSync(process.env.FIXED_ANSWERS, 'utf8'));
const head = (id) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
let next = 0;
let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    if (line.trim() === '') continue;
    const m = JSON.parse(line);
    if (m.id === undefined) continue;
    let result;
    if (m.method === 'initialize')
      result = {
        protocolVersion: m.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'fixed-answer', version: '1' },
      };
    else if (m.method === 'tools/call') {
      const text = m.params.name === 'find' ? texts[next++ % texts.length] : 'ok';
      result = { content: [{ type: 'text', text }] };
    } else result = {};
    process.stdout.write(`${head(m.id)}${JSON.stringify(result)}}\n`);
  }
});
