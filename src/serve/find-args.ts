/**
 * find_tool's arguments, read at serve's edge: what a client may ask for, and a clear refusal (an error result
 * naming the argument and its limit) for anything else — never a silent clamp of a hostile value, never work that
 * grows with it. The intent and each of `queries` are ranked by their first MAX_INTENT_CHARS characters, and the
 * answer says so.
 */
import { capIntent, cutIntentNote } from '../core/intent-limit.js';
import { MIN_FIND_MAX_TOKENS } from './find-budget.js';

/** k: results per answer. */
export const MAX_FIND_K = 20;
/** `queries`: other phrasings of the intent (the first MAX_RANKED_QUERIES are ranked with it). */
export const MAX_QUERIES = 20;
export const MAX_RANKED_QUERIES = 4;

export interface FindArgs {
  intent: string;
  queries: string[];
  k: number;
  server?: string;
  /** The call's own budget (undefined: the config's or the default). */
  maxTokens?: number;
  /** Notes for the answer: what was cut. */
  notes: string[];
}

/** A value a client sent, as an error shows it: at most 40 characters (a hostile value is never echoed whole). */
export const shownValue = (v: unknown): string => {
  const text = typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? typeof v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};
const show = shownValue;

/** The `server` argument of find_tool or list_tools: a name, or absent (undefined or ""); anything else is an error. */
export function readServerArg(tool: string, value: unknown): { server?: string } | { error: string } {
  if (value === undefined || value === '') return {};
  if (typeof value !== 'string')
    return { error: `${tool} "server" must be a server name (a string), got ${show(value)}.` };
  return { server: value };
}

/** The arguments, or the words of the error result refusing them. */
export function readFindArgs(args: Record<string, unknown>): FindArgs | { error: string } {
  const notes: string[] = [];
  const raw = typeof args.intent === 'string' ? args.intent.trim() : '';
  if (!raw) return { error: 'find_tool needs "intent": the task in plain words.' };
  const intent = capIntent(raw);
  if (intent.cutFrom !== undefined) notes.push(`${cutIntentNote('"intent"', intent.cutFrom)}.`);

  let k = 5;
  if (args.k !== undefined) {
    if (typeof args.k !== 'number' || !Number.isInteger(args.k) || args.k < 1 || args.k > MAX_FIND_K)
      return { error: `find_tool "k" must be a whole number from 1 to ${MAX_FIND_K}, got ${show(args.k)}.` };
    k = args.k;
  }

  let maxTokens: number | undefined;
  if (args.maxTokens !== undefined) {
    const m = args.maxTokens;
    if (typeof m !== 'number' || !Number.isFinite(m) || m < 1)
      return {
        error: `find_tool "maxTokens" must be a number of tokens of at least ${MIN_FIND_MAX_TOKENS} (smaller ones are read as ${MIN_FIND_MAX_TOKENS}), got ${show(m)}.`,
      };
    maxTokens = m;
  }

  const queries: string[] = [];
  if (args.queries !== undefined) {
    const q = args.queries;
    if (!Array.isArray(q) || q.length > MAX_QUERIES)
      return {
        error: `find_tool "queries" must be a list of at most ${MAX_QUERIES} strings (other phrasings of the intent), got ${Array.isArray(q) ? `a list of ${q.length} entries` : show(q)}.`,
      };
    // An entry that is not a string is refused like any other wrong argument; an empty one is passed over.
    for (const [i, text] of (q as unknown[]).entries()) {
      if (typeof text !== 'string')
        return {
          error: `find_tool "queries"[${i}] must be a string (another phrasing of the intent), got ${show(text)}.`,
        };
      const trimmed = text.trim();
      if (trimmed === '') continue;
      const capped = capIntent(trimmed);
      if (capped.cutFrom !== undefined) notes.push(`${cutIntentNote(`"queries"[${i}]`, capped.cutFrom)}.`);
      queries.push(capped.text);
    }
  }

  const named = readServerArg('find_tool', args.server);
  if ('error' in named) return named;
  const { server } = named;
  return {
    intent: intent.text,
    queries,
    k,
    ...(server && { server }),
    ...(maxTokens !== undefined && { maxTokens }),
    notes,
  };
}
