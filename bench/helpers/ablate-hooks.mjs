// Module hooks (node:module register) for bench/generalise.mjs --checks: when dist/core/discover/engine.js and
// forms.js load, each check after fusion or the re-ranker, and each reading of the intent, gets a switch that turns
// it off while `globalThis.__mcpSmartAblate` (a Set of the keys below) holds its key. With the set empty the
// compiled code runs as it is (each switch is `!off(key) && <the check's own condition>`), and generalise.mjs
// checks that the rankings are identical to the unpatched build's before it measures anything.
//
// The snippets are the compiled text of this tree's engine.ts: when one is not found the hook throws, naming it,
// so a moved check cannot silently stay on. Once the checks are one declared list (issue 37, item 1), ablation is a
// filter of that list and this file can go.

/** key → [file ending, compiled text, replacement] (the replacement keeps the text after the switch). */
export const SWITCHES = {
  // Readings of the intent, before any signal.
  'question-command': [
    'engine.js',
    'const mood = askedAs(intent);',
    "const mood = __off('question-command') ? { ...askedAs(intent), text: intent } : askedAs(intent);",
  ],
  joined: [
    'engine.js',
    'const both = joinedWords(',
    "const both = __off('joined') ? { query: derived.query, joined: [] } : joinedWords(",
  ],
  state: ['engine.js', 'const query = mutedState(', "const query = __off('state') ? both.query : mutedState("],
  // After fusion, before the re-ranker.
  action: ['engine.js', 'const conflicts = any ?', "const conflicts = !__off('action') && any ?"],
  forms: [
    'forms.js',
    'export function actionReading(index, doc, name) {',
    "export function actionReading(index, doc, name) { if (__off('forms')) return name;",
  ],
  // After the re-ranker.
  acts: ['engine.js', 'const asked = best && mood.read', "const asked = !__off('acts') && best && mood.read"],
  'action-kept': [
    'engine.js',
    'const again = any && reranked',
    "const again = !__off('action-kept') && any && reranked",
  ],
  number: ['engine.js', 'const numbered0 = best ?', "const numbered0 = !__off('number') && best ?"],
  'number-siblings': [
    'engine.js',
    'const numbered = best && mood.rule',
    "const numbered = !__off('number-siblings') && best && mood.rule",
  ],
  container: [
    'engine.js',
    'const inside = best && mood.container',
    "const inside = !__off('container') && best && mood.container",
  ],
  who: ['engine.js', 'const agents = best && mood.read', "const agents = !__off('who') && best && mood.read"],
  described: [
    'engine.js',
    'const described = any && (mood.question',
    "const described = !__off('described') && any && (mood.question",
  ],
  product: ['engine.js', 'const product = any', "const product = !__off('product') && any"],
  filename: [
    'engine.js',
    'const file = any && clauses.length < 2',
    "const file = !__off('filename') && any && clauses.length < 2",
  ],
};

const OFF_FN = '\nfunction __off(key) { return globalThis.__mcpSmartAblate?.has(key) === true; }\n';

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  const file = ['engine.js', 'forms.js'].find((f) => url.endsWith(`/dist/core/discover/${f}`));
  if (!file) return result;
  let source = String(result.source);
  for (const [key, [at, find, replace]] of Object.entries(SWITCHES)) {
    if (at !== file) continue;
    const n = source.split(find).length - 1;
    if (n !== 1)
      throw new Error(`bench/helpers/ablate-hooks.mjs: the switch "${key}" found ${n} copies of "${find}" in ${url}`);
    source = source.replace(find, replace);
  }
  return { ...result, source: source + OFF_FN, shortCircuit: true };
}
