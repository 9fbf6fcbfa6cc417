// A second, lower floor for the first discover (bench/cold.mjs, part `first`): the snapshot's bytes scanned once in
// plain JavaScript with no JSON.parse and no string made per word. Every run of ASCII letters and digits is a word
// (JSON escapes and non-ASCII bytes end a word); each word's lower-cased bytes are hashed (FNV-1a) into an
// open-addressing table of distinct words. No structure (tools are not told apart), no stemming, no vectors, no
// index. It shows what a byte-level first pass would start from — the cost of turning the file into strings and
// objects is what bench/helpers/first-floor.mjs measures. Prints the word and distinct-word counts and exits.
//   node bench/helpers/first-bytes.mjs <snapshot.json>
import { readFileSync } from 'node:fs';

const bytes = readFileSync(process.argv[2]);
const SLOTS = 1 << 18;
const table = new Int32Array(SLOTS); // each distinct word's hash, its low bit set (0: an empty slot)
let words = 0;
let distinct = 0;
let hash = 0;
let inWord = false;
for (let i = 0; i <= bytes.length; i++) {
  let c = i < bytes.length ? bytes[i] : 32;
  const upper = c >= 65 && c <= 90;
  const word = upper || (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  if (word) {
    if (upper) c += 32;
    hash = inWord ? Math.imul(hash ^ c, 16777619) : Math.imul(2166136261 ^ c, 16777619);
    inWord = true;
  } else if (inWord) {
    inWord = false;
    words++;
    const key = hash | 1;
    let slot = key & (SLOTS - 1);
    while (table[slot] !== 0 && table[slot] !== key) slot = (slot + 1) & (SLOTS - 1);
    if (table[slot] === 0) {
      table[slot] = key;
      distinct++;
    }
  }
}
console.log(`${words} words, ${distinct} distinct`);
