/** Splits a command line the way a POSIX shell splits words, without running anything through a shell. */
import { SmartError } from '../../process/errors.js';

/**
 * Single quotes keep everything literal; double quotes allow `\"`, `\\`, `\$` and `` \` `` escapes;
 * outside quotes a backslash escapes the next character. No globbing, variables or operators.
 */
export function splitCommandLine(line: string, flag = '--stdio'): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string)) word += line[++i];
      else word += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\') {
      if (i + 1 < line.length) {
        const next = line[++i] as string;
        // A backslash-newline is a line continuation, as in a shell.
        if (next !== '\n') word += next;
      }
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) {
    throw new SmartError('BAD_FLAG', {
      flag,
      value: line,
      hint: `Unbalanced ${quote === '"' ? 'double' : 'single'} quote. Close the quote or escape it with a backslash.`,
    });
  }
  if (inWord) words.push(word);
  return words;
}
