/**
 * Control characters a server or a file sent never reach the terminal raw (clear-screen, window titles,
 * cursor moves, hidden text). Only our own colours (SGR) and progress line-clear pass; everything else becomes a
 * visible `\u001b` — which is also a valid JSON escape, so JSON on stdout decodes to the same text.
 * The same goes for the invisible format characters that make text read differently than it is: bidi
 * overrides, embeddings, isolates and marks (`admin\u202egnp.exe` shows as "adminexe.png"), and zero-width
 * characters that make two different tool names look the same.
 *
 * Ours and a server's colour codes are told apart by a mark no server can know: a random run of C0 control
 * characters made once per process, put before each escape our chalk instance (ownColours) and progress line
 * (lineClear) write, and taken off here. A colour code without the mark (`\u001b[8m` conceal inside a tool
 * name) is escaped like any other control; a server's text given to our chalk is escaped before it is styled.
 * The mark's characters have no width for a table's layout (string-width skips control characters).
 */
import { randomInt } from 'node:crypto';

/** Sixteen C0 controls that are neither whitespace nor ESC: the mark's alphabet. */
const ALPHABET = '\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14\x15';
/** 12 characters of 16: 48 bits, made anew for each process. */
const MARK = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]!).join('');
const MARK_RE = MARK.replace(/[\x00-\x1f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/**
 * Whether our output passes escapeControls (the CLI's edge turns this on, cli/run.ts): only then do our colours and
 * line clears carry the mark. Without the edge (run() called directly, as tests do) the output is left as it was.
 */
let marking = false;
export function markOwnOutput(): void {
  marking = true;
}

/** Our progress line's "go to the line start and clear it". */
export const lineClear = (): string => (marking ? `\r${MARK}\x1b[2K` : '\r\x1b[2K');

const CONTROL = new RegExp(
  String.raw`${MARK_RE}\x1b\[[0-9;]*m|\r${MARK_RE}\x1b\[2K|\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]`,
  'g',
);
const UNMARKED_ESC = new RegExp(String.raw`(?<!${MARK_RE})\x1b`, 'g');

const escaped = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

export function escapeControls(text: string): string {
  return text.replace(CONTROL, (m) => {
    if (m.length === 1) return escaped(m);
    return m.startsWith(MARK) ? m.slice(MARK.length) : m.replace(MARK, '');
  });
}

/**
 * `text` as escapeControls will show it, our marked colours still marked: for a layout (a table's column widths)
 * that must measure a server's text as it will be printed, escapes and all.
 */
export function visibleText(text: string): string {
  if (!marking) return text; // nothing will be escaped at the edge either
  return text.replace(CONTROL, (m) => (m.length === 1 ? escaped(m) : m));
}

type Styler = (...args: unknown[]) => unknown;

/**
 * `chalk` whose colour codes pass escapeControls, and whose arguments' escapes (a server's text, never ours: our
 * styled pieces carry the mark) are made visible before it styles them.
 */
export function ownColours<T extends object>(chalk: T): T {
  if (!marking) return chalk;
  // The proxies stand in front of a blank function, not of chalk's own objects: chalk caches each style as a
  // read-only property, which a proxy of that very object would have to return unwrapped.
  const wrap = (real: object): object =>
    new Proxy(() => undefined, {
      apply: (_blank, self, args: unknown[]) => {
        const plain = args.map((a) => (typeof a === 'string' ? a.replace(UNMARKED_ESC, escaped) : a));
        return own(Reflect.apply(real as Styler, self, plain));
      },
      get: (_blank, key) => own(Reflect.get(real, key)),
      set: (_blank, key, value) => Reflect.set(real, key, value),
      has: (_blank, key) => Reflect.has(real, key),
    });
  const own = (v: unknown): unknown =>
    typeof v === 'string' ? v.replace(UNMARKED_ESC, `${MARK}\x1b`) : typeof v === 'function' ? wrap(v) : v;
  return wrap(chalk) as T;
}
