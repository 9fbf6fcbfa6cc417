// The lexical table of build-wordnet.mjs: data/wordnet-lexical.tsv.gz, read by src/core/discover/lexical.ts.
//
// One line per word of the word-vector vocabulary that has any of (fields separated by tabs, words by spaces):
//   word  attributes  agents
// - attributes: the nouns WordNet's attribute pointer (=) gives an adjective's first two senses, through the head
//   adjective for a satellite ("big" → size, "far" → distance, "old" → age, "long" → duration length, "heavy" →
//   weight), and for an adverb those of the adjective its pertainym pointer names ("quickly" → speed). discover
//   reads them after "how" ("how big is report.pdf" asks for its size).
// - agents: the person nouns (lexicographer file noun.person, in the noun's first sense) WordNet derives from a
//   verb's first two senses ("own" → owner, "send" → sender). discover reads them after "who".
// Synonyms and hypernyms of nouns were tried as weak expansions and not kept (bench/RESULTS.md, issue 29 round 3).
// At most 3 words a field, in WordNet's order. Sorted by UTF-16 code units, gzip level 9: byte-identical rebuilds.
import { gzipSync } from 'node:zlib';
import { writeFileSafe } from '../dist/process/safe-write.js';
import { stem } from '../dist/core/discover/tokenize.js';

const MAX = 3;
const SENSES = 2;
const PERSON = 18; // WordNet's lexicographer file noun.person

export async function writeLexical({ synsets, senseIndex, vocab, byCodeUnit, out, word: WORD }) {
  const one = (w) => w !== undefined && WORD.test(w);
  const fresh = (list, w, from) => one(w) && !list.includes(w) && stem(w) !== stem(from);
  // An attribute must be a word of the vocabulary (common English and tool texts): "how many" asks for no
  // "numerousness". (An agent need not be: "sender" is not in it.)
  const common = (list, w, from) => fresh(list, w, from) && vocab.has(w);
  const rows = new Map();
  const row = (w) => rows.get(w) ?? rows.set(w, { attributes: [], agents: [] }).get(w);

  // The attributes of an adjective synset, or of the head adjectives a satellite is similar to.
  const attributesOf = (s, w, list) => {
    const heads = [s, ...s.pointers.filter((x) => x.symbol === '&').map((x) => synsets.get(x.target))];
    const before = list.length;
    for (const h of heads) {
      for (const ptr of h?.pointers ?? []) {
        if (ptr.symbol !== '=' || !ptr.target.startsWith('n')) continue;
        for (const t of synsets.get(ptr.target)?.words.slice(0, 2) ?? []) if (common(list, t, w)) list.push(t);
      }
      if (list.length > before) break;
    }
  };
  for (const [key, offsets] of senseIndex) {
    const [p, w] = key.split(':');
    if (p === 'r') {
      // An adverb asks for the attribute of the adjective it is derived from (its synset's pertainym, \):
      // "how often" → frequent → frequency, "how quickly" → quick → speed. After the adjective's own, if any.
      const list = [...(rows.get(w)?.attributes ?? [])];
      if (list.length > 0) continue;
      for (const off of offsets.slice(0, SENSES)) {
        const r = synsets.get(`r${off}`);
        const self = r ? r.words.indexOf(w) + 1 : 0;
        for (const ptr of r?.pointers ?? []) {
          // The pertainym of this word itself (from "quickly", not from its synonym "rapidly").
          const adj = ptr.symbol === '\\' && ptr.src === self ? synsets.get(ptr.target) : undefined;
          if (adj && ptr.target.startsWith('a')) attributesOf(adj, w, list);
        }
      }
      if (list.length > 0) row(w).attributes = list.slice(0, MAX);
    } else if (p === 'a') {
      const list = [];
      for (const off of offsets.slice(0, SENSES)) {
        const s = synsets.get(`a${off}`);
        if (!s) continue;
        // A satellite ("big") has its attribute on the head adjective it is similar to ("large").
        attributesOf(s, w, list);
      }
      if (list.length > 0) row(w).attributes = list.slice(0, MAX);
    } else if (p === 'v') {
      const list = [];
      for (const off of offsets.slice(0, SENSES)) {
        const s = synsets.get(`v${off}`);
        const self = s ? s.words.indexOf(w) + 1 : 0;
        for (const d of s?.derived ?? []) {
          const target = synsets.get(d.target);
          if (d.src !== self || !target || target.lexfile !== PERSON || !d.target.startsWith('n')) continue;
          const t = target.words[d.dst - 1];
          // The person must be the noun's first sense ("creator", not "creature", whose first sense is an animal).
          const first = senseIndex.get(`n:${t}`)?.[0];
          if (first !== undefined && `n${first}` !== d.target) continue;
          if (fresh(list, t, w)) list.push(t);
        }
      }
      if (list.length > 0) row(w).agents = list.slice(0, MAX);
    }
  }
  const keys = [...rows.keys()].sort(byCodeUnit);
  const text =
    keys
      .map((k) => {
        const r = rows.get(k);
        return [k, r.attributes.join(' '), r.agents.join(' ')].join('\t');
      })
      .join('\n') + '\n';
  const gz = gzipSync(Buffer.from(text, 'utf8'), { level: 9 });
  await writeFileSafe(out, gz);
  const count = (f) => keys.filter((k) => rows.get(k)[f].length > 0).length;
  console.log(
    `${out}: ${keys.length} words (${count('attributes')} with attributes, ${count('agents')} with agents), ` +
      `${gz.byteLength} bytes gzip (${text.length} bytes of text)`,
  );
}
