/**
 * The token budget of a find_tool answer. The ranking is kept whole first: every result is listed by id and summary
 * in rank order (dropped from the end only when even those lines do not fit); then input schemas are added in rank
 * order while they fit. A schema too big for what is left is left out, so one giant schema never pushes the results
 * ranked after it out of the answer; the note says which schemas describe_tool gives. The whole answer, note
 * included, stays within the budget.
 *
 * The answer is JSON with one result per line. Each line ends in "}\n", where the tokenizers' pre-tokenization
 * (o200k_base and cl100k_base alike: a punctuation run takes the line break after it) always cuts, so the answer's
 * count is exactly the sum of its lines' counts: each line is counted once per tool and remembered by the counter,
 * and no answer-sized text is ever counted or cached.
 */
import { MIN_FIND_MAX_TOKENS } from '../core/config/validate.js';
import type { Unstarted } from './start-retry.js';

/** The budget of one find_tool answer when neither the call (`maxTokens`) nor the config sets one. */
export const DEFAULT_FIND_MAX_TOKENS = 1500;
/** The smallest budget accepted (room for a few ids, summaries and the note): the config check's floor. */
export { MIN_FIND_MAX_TOKENS };

export interface FindCandidate {
  /** The result without its schema (id, summary, readOnly, tool, unavailable). */
  brief: Record<string, unknown>;
  /** Its compact input schema, when it has one. */
  inputSchema?: unknown;
  /** That schema as JSON, when the caller kept it (JSON.stringify(inputSchema) otherwise). */
  schemaJson?: string;
  /** The candidate's lines and their counts, kept by the caller from one answer to the next (meta.ts). */
  kept?: KeptLines;
}

/**
 * One candidate's four lines (without / with its schema, first in the answer or not) and their token counts, as
 * made by earlier answers: the same candidate always makes the same lines, so they are not made (nor hashed and
 * looked up in the count cache) again. A count is kept only for the counter that gave it, and never a miss (0).
 */
export interface KeptLines {
  text: (string | undefined)[];
  cost: (number | undefined)[];
  counter?: (text: string) => number;
}

export interface BudgetedAnswer {
  /** The answer as sent: `{"results":[` one result per line `], "note"?, "notStarted"?}`. */
  text: string;
  tokens: number;
  /** Results listed (a prefix of the ranking). */
  listed: number;
  /** Ids listed without their schema. */
  withoutSchema: string[];
}

const HEAD = '{"results":[\n';
const tailWith =
  (unstarted: readonly Unstarted[]) =>
  (note: string | undefined): string =>
    `]${note ? `,"note":${JSON.stringify(note)}` : ''}${unstarted.length > 0 ? `,"notStarted":${JSON.stringify(unstarted)}` : ''}}`;
/** One result's line: the first has no comma before it. */
const line = (json: string, first: boolean): string => `${first ? '' : ','}${json}\n`;

/** JSON.stringify({ ...c.brief, inputSchema: c.inputSchema }), the schema's JSON taken as kept when it is. */
function withSchemaJson(c: FindCandidate): string {
  const brief = JSON.stringify(c.brief);
  const schema: string | undefined = c.schemaJson ?? JSON.stringify(c.inputSchema);
  if (schema === undefined) return brief;
  return `${brief.slice(0, -1)}${brief === '{}' ? '' : ','}"inputSchema":${schema}}`;
}

function noteFor(withoutSchema: string[], dropped: number, maxTokens: number): string | undefined {
  const parts: string[] = [];
  if (withoutSchema.length > 0)
    parts.push(
      `Input schemas left out to stay within ${maxTokens} tokens: call describe_tool with the id for ${withoutSchema.join(', ')}.`,
    );
  if (dropped > 0)
    parts.push(`${dropped} lower-ranked result${dropped === 1 ? '' : 's'} left out; ask with a larger maxTokens or k.`);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** The answer for `candidates` (in rank order) within `maxTokens`, its lines counted by `count`. */
export function budgetFindAnswer(
  candidates: readonly FindCandidate[],
  maxTokens: number,
  count: (text: string) => number,
  unstarted: readonly Unstarted[] = [],
): BudgetedAnswer {
  // Servers that have not started are named after the results: their tools cannot be found until they start.
  const tail = tailWith(unstarted);
  const idOf = (c: FindCandidate): string => String(c.brief.id);
  const full = (c: FindCandidate): string =>
    c.inputSchema === undefined ? JSON.stringify(c.brief) : withSchemaJson(c);
  // Each result's two lines (with and without its schema) are made and counted once: the fitting below asks again.
  // A candidate the caller keeps lines for takes them (and their counts) from the earlier answers too.
  const kept: KeptLines[] = candidates.map((c) => {
    const k = c.kept ?? { text: [], cost: [] };
    if (k.counter !== count) {
      k.cost = [];
      k.counter = count;
    }
    return k;
  });
  const costs: (number | undefined)[][] = candidates.map(() => [undefined, undefined]);
  const slot = (i: number, withSchema: boolean): number => 2 * +withSchema + +(i === 0);
  const lineOf = (i: number, withSchema: boolean): string =>
    (kept[i]!.text[slot(i, withSchema)] ??= line(
      withSchema ? full(candidates[i]!) : JSON.stringify(candidates[i]!.brief),
      i === 0,
    ));
  const cost = (i: number, withSchema: boolean): number => {
    const local = costs[i]!;
    if (local[+withSchema] !== undefined) return local[+withSchema]!;
    const k = kept[i]!;
    let n = k.cost[slot(i, withSchema)];
    if (n === undefined) {
      n = count(lineOf(i, withSchema));
      // A line always has a token: 0 is a count the counter did not have yet (a miss), asked again next time.
      if (n > 0) k.cost[slot(i, withSchema)] = n;
    }
    return (local[+withSchema] = n);
  };
  // Room is kept for a note naming one id and dropped results; a longer note is made room for at the end.
  const longestId = candidates.map(idOf).reduce((a, b) => (b.length > a.length ? b : a), '');
  let used = count(HEAD) + count(tail(noteFor([longestId], 1, maxTokens)));
  let listed = 0;
  while (listed < candidates.length && used + cost(listed, false) <= maxTokens) used += cost(listed++, false);
  const schemaOn: boolean[] = candidates.map(() => false);
  for (let i = 0; i < listed; i++) {
    if (candidates[i]!.inputSchema === undefined) continue;
    const extra = cost(i, true) - cost(i, false);
    if (used + extra <= maxTokens) {
      schemaOn[i] = true;
      used += extra;
    }
  }
  const build = (): BudgetedAnswer => {
    const withoutSchema = candidates
      .slice(0, listed)
      .filter((c, i) => c.inputSchema !== undefined && !schemaOn[i])
      .map(idOf);
    const end = tail(noteFor(withoutSchema, candidates.length - listed, maxTokens));
    let text = HEAD;
    let tokens = count(HEAD) + count(end);
    for (let i = 0; i < listed; i++) {
      text += lineOf(i, schemaOn[i]!);
      tokens += cost(i, schemaOn[i]!);
    }
    return { text: text + end, tokens, listed, withoutSchema };
  };
  // The note grew past the room kept for it: the last schema added goes, else the last result, until it fits.
  let answer = build();
  while (answer.tokens > maxTokens && listed > 0) {
    const last = schemaOn.lastIndexOf(true, listed - 1);
    if (last >= 0) schemaOn[last] = false;
    else listed--;
    answer = build();
  }
  return answer;
}

/** The budget of one call: its `maxTokens` (whole numbers, at least MIN_FIND_MAX_TOKENS), else the config's, else the default. */
export function findMaxTokens(perCall: unknown, configured: number | undefined): number {
  if (typeof perCall === 'number' && Number.isFinite(perCall))
    return Math.max(MIN_FIND_MAX_TOKENS, Math.floor(perCall));
  return configured ?? DEFAULT_FIND_MAX_TOKENS;
}
