/**
 * The README's list of --explain reasons, made from the code: the signals' reasons (below) and every check's
 * (CHECKS, with its doc, stage and the fields it reads). scripts/readme-samples.mjs writes it into the README
 * (sample `explain-reasons`) and test/unit/discover-checks.test.ts holds the two equal.
 */
import type { Check } from './check.js';
import { CHECKS } from './index.js';

/** The reasons no check gives: each signal's contribution, the re-ranker's move, the keyword engine's, patterns'. */
export const SIGNAL_REASONS: readonly { keys: readonly string[]; doc: string }[] = [
  {
    keys: ['bm25', 'semantic', 'usage'],
    doc: "each signal's contribution to the score (in the bm25 and semantic engines, their score)",
  },
  { keys: ['clauses'], doc: "for an intent of several steps, the tool's best per-clause score" },
  { keys: ['server'], doc: "the tool's share of its server's score" },
  { keys: ['intents'], doc: 'its similarity to an intent it was called for before (remembered intents)' },
  { keys: ['rerank'], doc: 'what the second stage (the re-ranker) moved its score by' },
  { keys: ['strong', 'weak'], doc: 'the keyword engine: name and description matches, and weaker ones' },
  { keys: ['pattern'], doc: 'a boost of a configured pattern' },
];

const STAGE = { fused: 'after fusion', reranked: 'after the re-ranker' } as const;

const code = (keys: readonly string[]): string => keys.map((k) => `\`${k}\``).join(', ');

function checkLine(c: Check): string {
  const keys = c.parts ? Object.keys(c.parts.docs) : [c.reason];
  const head = `- ${code(keys)} (\`checks/${c.name}.ts\`, ${STAGE[c.stage]}; reads ${c.reads.join(', ')}): ${c.doc}`;
  if (!c.parts) return head;
  return [head, ...Object.entries(c.parts.docs).map(([k, doc]) => `  - \`${k}\`: ${doc}`)].join('\n');
}

/** The list as Markdown: one line per signal reason, then one per check in the order they run. */
export function reasonsMarkdown(checks: readonly Check[] = CHECKS): string {
  const signals = SIGNAL_REASONS.map((r) => `- ${code(r.keys)}: ${r.doc}`);
  return `${[...signals, ...checks.map(checkLine)].join('\n')}\n`;
}
