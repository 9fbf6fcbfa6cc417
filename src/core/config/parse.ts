/** Parses config text as JSON (with comments and trailing commas, as VS Code writes it) or TOML. */
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { createRequire } from 'node:module';
import type { parse as TomlParse } from 'smol-toml';
import { SmartError } from '../../process/errors.js';
import { stripBom } from '../../process/read-file.js';
import { formatKeyPath, type KeyPart } from './key-path.js';

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

/**
 * The value of a parsed JSONC tree. Every key becomes an own property, as JSON.parse makes it: a server named
 * "__proto__" stays a key (jsonc-parser's own `parse` assigns it, which sets the object's prototype and loses it).
 * A key given twice in one object keeps its last value, as JSON.parse does, and its path is reported.
 * An explicit stack, not recursion, so a deeply nested file cannot overflow the call stack here.
 */
function valueOfTree(root: Node): { value: unknown; duplicateKeys: string[] } {
  const own = (target: object, key: string, value: unknown): void => {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  };
  const leaf = (node: Node): unknown => (node.type === 'object' ? {} : node.type === 'array' ? [] : node.value);
  const rootValue = leaf(root);
  const duplicateKeys: string[] = [];
  const stack: { node: Node; value: unknown; path: KeyPart[] }[] = [{ node: root, value: rootValue, path: [] }];
  while (stack.length > 0) {
    const { node, value, path } = stack.pop()!;
    if (node.type === 'array') {
      const list = value as unknown[];
      (node.children ?? []).forEach((child, i) => {
        const v = leaf(child);
        list.push(v);
        if (child.type === 'object' || child.type === 'array')
          stack.push({ node: child, value: v, path: [...path, i] });
      });
    } else if (node.type === 'object') {
      for (const prop of node.children ?? []) {
        const [keyNode, child] = prop.children ?? [];
        if (!keyNode || !child) continue;
        const key = String(keyNode.value);
        if (Object.prototype.hasOwnProperty.call(value, key)) duplicateKeys.push(formatKeyPath([...path, key]));
        const v = leaf(child);
        own(value as object, key, v);
        if (child.type === 'object' || child.type === 'array')
          stack.push({ node: child, value: v, path: [...path, key] });
      }
    }
  }
  return { value: rootValue, duplicateKeys: [...new Set(duplicateKeys)].sort() };
}

function parseJson(text: string, file: string): ParsedConfig {
  if (text.trim() === '') return { value: {}, duplicateKeys: [] };
  const errors: ParseError[] = [];
  let tree: Node | undefined;
  try {
    tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new SmartError('FILE_PARSE', {
      file,
      kind: 'JSON',
      reason: 'it is nested too deeply to read (a config holds a few levels). Fix the file and run again.',
    });
  }
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
  return tree ? valueOfTree(tree) : { value: undefined, duplicateKeys: [] };
}

let tomlParse: typeof TomlParse | undefined;
/** smol-toml (9 modules) is loaded when a TOML file is read (Codex's config), not on every start. */
const parseToml = (text: string): unknown =>
  (tomlParse ??= (createRequire(import.meta.url)('smol-toml') as { parse: typeof TomlParse }).parse)(text);

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

export interface ParsedConfig {
  value: unknown;
  /** Key paths given more than once in one object (JSON only: TOML forbids them and fails to parse). */
  duplicateKeys: string[];
}

/** Parses a config file's text, noting keys given twice. Syntax errors are FILE_PARSE naming the file, line and column. */
export function parseConfigDocument(file: string, raw: string): ParsedConfig {
  // Editors on Windows often save UTF-8 with a byte-order mark; it is not part of the document.
  const text = stripBom(raw);
  // UTF-16 (Windows editors' "Unicode") read as UTF-8: a NUL after every ASCII character, or its mark as U+FFFD.
  if (text.includes('\u0000') || /^\uFFFD\uFFFD/.test(text))
    throw new SmartError('FILE_PARSE', {
      file,
      kind: /\.toml$/i.test(file) ? 'TOML' : 'JSON',
      reason:
        'it is not UTF-8 text (it holds NUL bytes, as a file saved as UTF-16 does). Save it as UTF-8 and run again.',
    });
  return detectSyntax(file, text) === 'toml'
    ? { value: parseTomlText(text, file), duplicateKeys: [] }
    : parseJson(text, file);
}

/** Parses a config file's text. Syntax errors are FILE_PARSE naming the file, line and column. */
export function parseConfigText(file: string, raw: string): unknown {
  return parseConfigDocument(file, raw).value;
}

/** The warning for keys a config file gives twice. */
export function duplicateKeyWarning(file: string, keys: readonly string[]): string {
  const shown = keys.slice(0, 5).join(', ') + (keys.length > 5 ? ` and ${keys.length - 5} more` : '');
  return `${file}: ${keys.length === 1 ? 'key' : 'keys'} ${shown} ${keys.length === 1 ? 'is' : 'are'} given more than once; the last value is used. Remove the earlier ${keys.length === 1 ? 'one' : 'ones'}.`;
}

/**
 * A file with nothing in it (no byte, or only white space) is read as no servers, as its client reads it; a file a
 * client created and left empty is common, so this is said, not refused.
 */
export function emptyFileWarnings(file: string, raw: string): string[] {
  if (stripBom(raw).trim() !== '') return [];
  return [`${file} is empty, so it configures no servers; add server entries to it, or delete it.`];
}
