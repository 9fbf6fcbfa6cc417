// The first discover on text not written in English (bench/cold.mjs, BENCH_COLD_SCRIPTS=1): the same snapshot with
// every tool's description and title rewritten, its names and schemas as they were, so the index has the same tools
// and the same amount of text. `cyrillic`: each Latin letter the Cyrillic one at its place in the alphabet (text that
// is all two-byte strings, as Russian, Greek or Polish is). `chinese`: "the", "a", "to", "of" and "and" written in
// Chinese (Han runs beside English words, each Han run looked up in the glossary). Written into `dir`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const HAN = { the: '这个', a: '一个', to: '到', of: '的', and: '和' };
const REWRITE = {
  cyrillic: (text) =>
    text.replace(/[A-Za-z]/g, (c) => {
      const code = c.charCodeAt(0);
      return String.fromCharCode(code < 97 ? 0x410 + code - 65 : 0x430 + code - 97);
    }),
  chinese: (text) => text.replace(/\b(the|a|to|of|and)\b/g, (w) => HAN[w]),
};

/** The variants' snapshot files: { cyrillic, chinese }. */
export function writeScriptVariants(snapshot, dir) {
  const source = readFileSync(snapshot, 'utf8');
  const out = {};
  for (const [name, rewrite] of Object.entries(REWRITE)) {
    const rewritten = (value) => {
      if (Array.isArray(value)) return value.map(rewritten);
      if (value === null || typeof value !== 'object') return value;
      const copy = {};
      for (const [k, v] of Object.entries(value))
        copy[k] = (k === 'description' || k === 'title') && typeof v === 'string' ? rewrite(v) : rewritten(v);
      return copy;
    };
    const doc = JSON.parse(source);
    for (const server of doc.servers) server.tools = rewritten(server.tools);
    out[name] = join(dir, `${name}.snapshot.json`);
    writeFileSync(out[name], JSON.stringify(doc));
  }
  return out;
}
