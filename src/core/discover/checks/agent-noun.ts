/**
 * "who <verb>" asks for the verb's agents ("who follows my LINE bot?" asks for its followers): among the best
 * candidates of such a question, a tool whose name holds the agent noun the verb makes with -er / -or, as the tool
 * writes it ("get_follower_ids"), gains a share of the best score (the `agent` reason of --explain). Morphology,
 * not a word list; lexical.ts adds WordNet's agents ("owns" → owner) to the query, this checks the names.
 */
import type { Check } from './check.js';
import type { DiscoverIndex } from '../build.js';
import { bestScore, kept, shiftScores } from '../per-tool.js';
import { splitWords, STOP_WORDS } from '../tokenize.js';

/** Share of the best candidate's score gained by a tool whose name holds the question's agent noun. */
export const AGENT_SHARE = 0.05;

/** The agent nouns a "who <verb>" question asks for ("who follows" → follower, followers), or none. */
export function askedAgents(intent: string): Set<string> {
  const m = /^\s*who\s+([a-z]+)/i.exec(intent);
  const out = new Set<string>();
  if (!m) return out;
  const verb = m[1]!.toLowerCase();
  if (STOP_WORDS.has(verb)) return out;
  // The verb's base: as written, or without its -s / -es / -ed / -d.
  const bases = new Set([verb, verb.replace(/e?s$/, ''), verb.replace(/s$/, ''), verb.replace(/e?d$/, '')]);
  for (const b of bases) {
    if (b.length < 3) continue;
    for (const agent of b.endsWith('e') ? [`${b}r`, `${b.slice(0, -1)}or`] : [`${b}er`, `${b}or`]) {
      out.add(agent);
      out.add(`${agent}s`);
    }
  }
  return out;
}

const names = new WeakMap<DiscoverIndex, Map<number, readonly string[]>>();

/** Raises `scores` of the candidates whose name holds an agent noun the question asks for; returns each gain. */
export function agentNames(
  index: DiscoverIndex,
  intent: string,
  scores: Float32Array,
  cands: readonly number[],
): Map<number, number> | null {
  const agents = askedAgents(intent);
  if (agents.size === 0) return null;
  const top = bestScore(scores, cands);
  if (!(top > 0)) return null;
  return shiftScores(scores, cands, AGENT_SHARE * top, (i) =>
    kept(names, index, i, () => splitWords(index.tools[i]!.tool.name)).some((w) => agents.has(w)) ? 1 : 0,
  );
}

export const agentNounCheck: Check = {
  name: 'agent-noun',
  reason: 'agent',
  doc: 'a tool whose name holds the agent noun a "who <verb>" question asks for ("who follows" → `get_follower_ids`) gains 5 % of the best score',
  stage: 'reranked',
  pool: 'near',
  reads: ['name'],
  applies: (c) => c.intent.mood.question && c.intent.mood.read,
  shift: (c, pool) => agentNames(c.index, c.intent.raw, c.scores, pool()),
};
