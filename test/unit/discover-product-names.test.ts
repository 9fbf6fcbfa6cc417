// productNames looks at capitalised words only, and then only for its candidates' lower-case spellings (lexicon.ts
// writtenInLowerCase), instead of a set of every lower-case word: the names it finds, and their order, must be those of the plain definition below (one set of
// every lower-case word, then every candidate tested), on any texts.
import { describe, expect, it } from 'vitest';
import { overStemmed, productNames } from '../../src/core/discover/lexicon.js';
import { splitWords, STOP_WORDS } from '../../src/core/discover/tokenize.js';

/** The definition, as the doc comment of productNames words it, written the plain way. */
function plainProductNames(tools: readonly { server: string; tool: { description?: string; title?: string } }[]) {
  const WORD4 = /(?<![\w-])[A-Za-z][a-z]{3,}(?![\w-])/g;
  const isUpper = (c: number): boolean => c >= 65 && c <= 90;
  const isLower = (c: number): boolean => c >= 97 && c <= 122;
  const insideSentence = (text: string, at: number, end: number): boolean => {
    if (text.charCodeAt(end) === 32 && isUpper(text.charCodeAt(end + 1))) return false;
    let i = at - 1;
    if (text.charCodeAt(i) !== 32) return false;
    i--;
    if (text.charCodeAt(i) === 44) i--;
    const wordEnd = i;
    while (i >= 0 && isLower(text.charCodeAt(i))) i--;
    if (i === wordEnd) return false;
    return i < 0 || text[i] === ' ' || text[i] === '(' || text[i] === '\n';
  };
  const candidates = new Set<string>();
  const lower = new Set<string>();
  for (const t of tools)
    for (const text of [t.tool.description, t.tool.title]) {
      if (!text) continue;
      for (const m of text.matchAll(WORD4)) {
        const [at, end] = [m.index, m.index + m[0].length];
        if (!isUpper(text.charCodeAt(at))) lower.add(m[0]);
        else if (insideSentence(text, at, end)) candidates.add(m[0].toLowerCase());
      }
    }
  for (const server of new Set(tools.map((t) => t.server))) for (const w of splitWords(server)) candidates.add(w);
  return [...candidates].filter(
    (w) => w.length >= 4 && !lower.has(w) && !STOP_WORDS.has(w) && /^[a-z]+$/.test(w) && overStemmed(w),
  );
}

// A fixed-seed generator: every run checks the same texts.
let seed = 7;
const next = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
const pieces = [
  'Remotion',
  'remotion',
  'Kubernetes',
  'kubernetes',
  'Generation',
  'generation',
  'Redis',
  'Remote',
  'remote',
  'Recommendation',
  'recommendation',
  'Communication',
  'the',
  'and',
  'with',
  'a',
  'of',
  'Use',
  'List',
  'x-Remotion',
  'Remotion_x',
  'Remotion2',
  'remotion9',
  'Kubernetesé',
  'Remotions',
  'REMOTION',
  'Relational',
  'relational',
  'ab',
  'Ab',
  'é',
  'Éducation',
  'education',
];
const seps = [' ', ' ', ' ', ', ', '. ', '\n', ' (', ') ', '-', '_', ': ', '  ', '\t'];
const text = (): string =>
  Array.from({ length: next(30) }, () => pieces[next(pieces.length)]! + seps[next(seps.length)]!).join('');
const servers = ['remotion', 'kubernetes-mcp', 'generation', 'my_server', 'Relational DB', 'x'];

describe('product names found by looking only for the candidates in lower case', () => {
  it('are those of the plain definition, in the same order, on random texts', () => {
    let found = 0;
    for (let round = 0; round < 400; round++) {
      const tools = Array.from({ length: 1 + next(12) }, () => ({
        server: servers[next(servers.length)]!,
        tool: {
          ...(next(4) > 0 ? { description: text() } : {}),
          ...(next(3) === 0 ? { title: text() } : {}),
        },
      }));
      const names = [...productNames(tools)];
      expect(names).toEqual(plainProductNames(tools));
      found += names.length;
    }
    expect(found).toBeGreaterThan(100); // the texts do make product names, and drop them again
  });
});
