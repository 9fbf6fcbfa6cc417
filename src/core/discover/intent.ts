/**
 * The intent as a ranking reads it, read once: its mood (a question is ranked as the command it amounts to:
 * mood.ts), the text ranked, that text without its payload (quoted text, code, JSON: lexicon.ts), its clauses and
 * where the clause it asks to keep starts. Each part is worked out when first asked for, and only once: the keyword
 * engine asks for none, a one-step command for no clauses.
 */
import { MAX_CLAUSES } from './candidates.js';
import { intentClauses } from './clauses.js';
import { keptClause, withoutPayload } from './lexicon.js';
import { askedAs, type Asked } from './mood.js';

export class Intent {
  #mood?: Asked;
  #plain?: string;
  #rawPlain?: string;
  #clauses?: readonly string[];
  #kept?: number;

  /** The intent as the user wrote it. */
  constructor(readonly raw: string) {}

  /** How it is asked (mood.ts askedAs): a question or a command, and what a question amounts to. */
  get mood(): Asked {
    return (this.#mood ??= askedAs(this.raw));
  }

  /** The text ranked: a read question as its command ("which channels…" → "list which channels…"), else `raw`. */
  get text(): string {
    return this.mood.text;
  }

  /** `text` without its payload (lexicon.ts withoutPayload): what the request asks for, not what it carries. */
  get plain(): string {
    return (this.#plain ??= withoutPayload(this.text));
  }

  /** `raw` without its payload: the file check reads the file names the user wrote, not the command's text. */
  get rawPlain(): string {
    return (this.#rawPlain ??= withoutPayload(this.raw));
  }

  /** The steps of a task of several (clauses.ts), cut from `plain` (payload is not a step), at most MAX_CLAUSES. */
  get clauses(): readonly string[] {
    return (this.#clauses ??= intentClauses(this.plain).slice(0, MAX_CLAUSES));
  }

  /** Where in `text` the clause a create verb asks to keep starts ("remember that …"), or -1 (lexicon.ts). */
  get kept(): number {
    return (this.#kept ??= keptClause(this.text));
  }
}

/** Reads an intent (its parts are worked out on first use). */
export function readIntent(raw: string): Intent {
  return new Intent(raw);
}
