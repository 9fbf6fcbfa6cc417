// A floor for the first discover (bench/cold.mjs): the least any first run on a snapshot does, in plain JavaScript
// and nothing more — the file read whole and JSON.parse'd, then every tool's name, description and input schema
// split into lower-case words and counted per tool and across tools. No stemming, no vectors, no index, no ranking,
// no cache written. Prints the word and term counts (so the work cannot be skipped) and exits.
//   node bench/helpers/first-floor.mjs <snapshot.json>
import { readFileSync } from 'node:fs';

const snapshot = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const df = new Map();
let words = 0;
for (const server of Object.values(snapshot.servers ?? {})) {
  for (const tool of server.tools ?? []) {
    const text = `${tool.name} ${tool.description ?? ''} ${JSON.stringify(tool.inputSchema ?? {})}`.toLowerCase();
    const tf = new Map();
    for (const w of text.split(/[^a-z0-9]+/)) {
      if (!w) continue;
      words++;
      tf.set(w, (tf.get(w) ?? 0) + 1);
    }
    for (const w of tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  }
}
console.log(`${words} words, ${df.size} terms`);
