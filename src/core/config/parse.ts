/** Parses config text as JSON (with comments and trailing commas, as VS Code writes it) or TOML. */
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { SmartError } from '../../errors.js';

export type ConfigSyntax = 'json' | 'toml';

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const PARSE_HINTS: Record<string, string> = {
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected text after the end of the document',
  InvalidSymbol: 'unexpected character',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfComment: 'unterminated comment',
};

function parseJson(text: string, file: string): unknown {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const { line, column } = lineColumn(text, first.offset);
    const code = printParseErrorCode(first.error);
    throw new SmartError('FILE_PARSE', {
      file,
      kind: 'JSON',
      reason: `line ${line}, column ${column}: ${PARSE_HINTS[code] ?? code}. Fix the file and run again.`,
    });
  }
  // Strict JSON keeps a server named "__proto__" as a key (the JSONC parser assigns it as the prototype).
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return value;
  }
}

function parseTomlText(text: string, file: string): unknown {
  try {
    return parseToml(text);
  } catch (e) {
    const err = e as { line?: number; column?: number; message?: string };
    const first = String(err.message ?? e).split('\n')[0] ?? '';
    const where = err.line !== undefined ? `line ${err.line}, column ${err.column ?? 1}: ` : '';
    throw new SmartError(
      'FILE_PARSE',
      {
        file,
        kind: 'TOML',
        reason: `${where}${first.replace(/^Invalid TOML document: /, '')}. Fix the file and run again.`,
      },
      { cause: e },
    );
  }
}

function looksLikeToml(text: string): boolean {
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    return /^\[[^\]"{]+\]$/.test(line) || /^[A-Za-z0-9_."'-]+\s*=/.test(line);
  }
  return false;
}

/** Which syntax a file is in: by extension, else by content. */
export function detectSyntax(file: string, text: string): ConfigSyntax {
  if (/\.toml$/i.test(file)) return 'toml';
  if (/\.jsonc?$/i.test(file)) return 'json';
  const start = text.trimStart();
  if (start.startsWith('{') || start.startsWith('//') || start.startsWith('/*')) return 'json';
  return looksLikeToml(text) ? 'toml' : 'json';
}

/** Parses a config file's text. Syntax errors are FILE_PARSE naming the file, line and column. */
export function parseConfigText(file: string, raw: string): unknown {
  // Editors on Windows often save UTF-8 with a byte-order mark; it is not part of the document.
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  return detectSyntax(file, text) === 'toml' ? parseTomlText(text, file) : parseJson(text, file);
}
