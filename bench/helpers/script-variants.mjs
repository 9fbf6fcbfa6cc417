// The first discover on text not written in English (bench/cold.mjs, BENCH_COLD_SCRIPTS=1): the same snapshot with
// every tool's description and title rewritten, its names and schemas as they were, so the index has the same tools
// and the same amount of text. `cyrillic`: each Latin letter the Cyrillic one at its place in the alphabet (text that
// is all two-byte strings, as Russian, Greek or Polish is). `chinese`: each text a third of its length in Chinese
// clauses, each made of pieces of the Chinese runs LiveMCPBench's tools are described with (as many distinct runs as a
// catalogue written in Chinese has, each looked up in the glossary). Written into `dir`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA } from './datasets.mjs';

function chineseWriter() {
  const source = readFileSync(join(DATA, 'livemcpbench', 'tools.json'), 'utf8');
  const runs = [...new Set(source.match(/\p{Script=Han}+/gu))];
  let seed = 5;
  const next = (k) => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed % k;
  };
  const clause = () => {
    let text = '';
    for (let parts = 1 + next(5); parts > 0; parts--) {
      const run = runs[next(runs.length)];
      const at = next(run.length);
      text += run.slice(at, at + 2 + next(5));
    }
    return text;
  };
  return (text) => {
    let out = '';
    for (let i = 0, n = Math.max(1, Math.round(text.length / 12)); i < n; i++)
      out += clause() + (i % 3 === 2 ? '。' : '，');
    return out;
  };
}

/** The variants' snapshot files: { cyrillic, chinese }. */
export function writeScriptVariants(snapshot, dir) {
  const source = readFileSync(snapshot, 'utf8');
  const out = {};
  const REWRITE = {
    cyrillic: (text) =>
      text.replace(/[A-Za-z]/g, (c) => {
        const code = c.charCodeAt(0);
        return String.fromCharCode(code < 97 ? 0x410 + code - 65 : 0x430 + code - 97);
      }),
    chinese: chineseWriter(),
  };
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
