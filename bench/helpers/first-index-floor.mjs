// A third floor for the first discover (bench/cold.mjs, part `first`): the least a byte-level first index would do,
// in plain JavaScript, with none of the ranking's structure. It loads the shipped word-vector table (this tree's
// dist/core/discover/vectors.js) and, on the snapshot's bytes scanned once (no JSON.parse, no string per word;
// first-bytes.mjs's scan), makes one string per distinct ASCII word and hands each document's words to the product's
// SIF summer (sif-wasm.ts: each distinct word stemmed and looked up once, each word's SIF-weighted row added into its
// document's sentence vector in WebAssembly). Documents are the word stream cut into the
// catalogue's tool count, not real tools: no fields, no schema walk, no BM25 postings, no product names, no glossary,
// no principal component, no ranking). FLOOR_MARKS=1: each step's time on stderr. A real first index does all of this and more, so its answer cannot come
// sooner than this floor plus the CLI's own start. Prints the counts and exits.
//   node bench/helpers/first-index-floor.mjs <snapshot.json> [tools]
import { readFileSync } from 'node:fs';
import { loadWordVectors } from '../../dist/core/discover/vectors.js';
import { sifSummer } from '../../dist/core/discover/sif-wasm.js';

const marks = [['start', performance.now()]];
const mark = (name) => marks.push([name, performance.now()]);
const bytes = readFileSync(process.argv[2]);
const tools = Number(process.argv[3] ?? 2781);
const vectors = await loadWordVectors();
const { dims } = vectors;
mark('read + vectors');

// Pass 1: the words of the string values a ranking reads (those of the keys "name", "title" and "description", at
// any depth: tools' and parameters'), each word hashed, its distinct words in an open-addressing table (slot → first
// byte offset and length). Keys, other values and JSON's own words ("type", "object", "string") are skipped.
const SLOTS = 1 << 18;
const keys = new Int32Array(SLOTS);
const starts = new Int32Array(SLOTS);
const lengths = new Int32Array(SLOTS);
const tokens = new Int32Array(bytes.length >>> 1); // each word's slot, in order
let count = 0;
/** FNV-1a of a key's bytes (bytes[from, to)), or of an ASCII text's char codes. */
const hashOf = (from, to, at = (i) => bytes[i]) => {
  let h = 2166136261;
  for (let i = from; i < to; i++) h = Math.imul(h ^ at(i), 16777619);
  return h;
};
const READ = new Set(['name', 'title', 'description'].map((k) => hashOf(0, k.length, (i) => k.charCodeAt(i))));
/** The words of bytes[from, to) (a string's inside): runs of ASCII letters and digits, lower-cased. */
function words(from, to) {
  let hash = 0;
  let start = -1;
  for (let i = from; i <= to; i++) {
    let c = i < to ? bytes[i] : 32;
    const upper = c >= 65 && c <= 90;
    if (upper || (c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (upper) c += 32;
      if (start < 0) {
        start = i;
        hash = Math.imul(2166136261 ^ c, 16777619);
      } else hash = Math.imul(hash ^ c, 16777619);
    } else if (start >= 0) {
      const key = hash | 1;
      let slot = key & (SLOTS - 1);
      while (keys[slot] !== 0 && keys[slot] !== key) slot = (slot + 1) & (SLOTS - 1);
      if (keys[slot] === 0) {
        keys[slot] = key;
        starts[slot] = start;
        lengths[slot] = i - start;
      }
      tokens[count++] = slot;
      start = -1;
    }
  }
}
let lastKey = 0;
for (let i = 0; i < bytes.length; i++) {
  if (bytes[i] !== 0x22) continue;
  const open = i + 1;
  let close = open;
  while (bytes[close] !== 0x22) close += bytes[close] === 0x5c ? 2 : 1;
  i = close;
  let next = close + 1;
  while (bytes[next] === 0x20 || bytes[next] === 0x0a || bytes[next] === 0x0d || bytes[next] === 0x09) next++;
  if (bytes[next] === 0x3a) lastKey = hashOf(open, close);
  else if (READ.has(lastKey)) words(open, close);
}
mark('scan');
// Pass 2: each distinct word decoded once (a string per distinct word, none per token).
const wordOf = new Array(SLOTS);
let distinct = 0;
for (let slot = 0; slot < SLOTS; slot++) {
  if (keys[slot] === 0) continue;
  distinct++;
  wordOf[slot] = bytes.toString('latin1', starts[slot], starts[slot] + lengths[slot]);
}
mark('words');
// Pass 3: each document's words through the product's own SIF summer (sif-wasm.ts: each distinct word stemmed and
// looked up once, its weighted row summed in WebAssembly).
const summer = sifSummer(vectors, tools);
const perDoc = Math.ceil(count / tools);
let known = 0;
for (let doc = 0, t = 0; t < count; doc++) {
  const words = [];
  for (const end = Math.min(count, t + perDoc); t < end; t++) words.push(wordOf[tokens[t]]);
  known += summer.add(words, doc);
}
mark('sums');
console.log(`${count} words, ${distinct} distinct, ${known} with a row, ${tools} × ${dims} sums`);
if (process.env.FLOOR_MARKS)
  console.error(
    marks
      .slice(1)
      .map(([n, t], i) => `${n} ${(t - marks[i][1]).toFixed(0)} ms`)
      .join(', '),
    `(node's start ${marks[0][1].toFixed(0)} ms)`,
  );
