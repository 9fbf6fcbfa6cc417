/**
 * A Codex server written in config.toml other than as its own `[mcp_servers.<name>]` table — an inline table
 * (`mem = { command = "node" }` under `[mcp_servers]`, or `mcp_servers.mem = { … }`) or dotted keys
 * (`mem.command = "node"` under `[mcp_servers]`, `mcp_servers.mem.command = "node"` at the top) — switched off and
 * back in the form it is written: `enabled = false` inside the inline table, a dotted `mem.enabled = false` line
 * beside the others. TOML forbids defining a table twice, so a `[mcp_servers.<name>]` header is never added there.
 * Works on the text with `\n` line ends; strings and comments are read past, never edited. Pure.
 */

/** A key as written: its parts, each part's text, and the offset after it (whitespace included). */
interface Key {
  parts: string[];
  raw: string[];
  end: number;
}

/** A `key = value` pair: its full path (the table's, then the key's) and where it and its value are. */
interface Pair {
  path: string[];
  raw: string[];
  /** How many parts of `path` are the table's. */
  tableParts: number;
  start: number;
  valueAt: number;
  end: number;
}

const skipSpaces = (text: string, i: number): number => {
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
};

/** Past spaces, line ends and comments. */
function skipTrivia(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++; // \s holds a byte-order mark too
    if (text[i] !== '#') return i;
    const eol = text.indexOf('\n', i);
    i = eol < 0 ? text.length : eol;
  }
}

/** The offset after the string that starts at `i` (basic, literal, multi-line). */
function stringEnd(text: string, i: number): number {
  const q = text[i]!;
  const ml = text.startsWith(q.repeat(3), i);
  let j = i + (ml ? 3 : 1);
  while (j < text.length) {
    const c = text[j]!;
    if (c === '\\' && q === '"') j += 2;
    else if (!ml && c === '\n') return j;
    else if (c === q && (!ml || text.startsWith(q.repeat(3), j))) {
      if (!ml) return j + 1;
      // Up to two quotes of the content may stand right before the closing three.
      let k = j + 3;
      while (text[k] === q && k < j + 5) k++;
      return k;
    } else j++;
  }
  return j;
}

/** The offset after the value that starts at `i`: a string, an array or inline table (any depth), a bare value. */
function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"' || c === "'") return stringEnd(text, i);
  if (c !== '[' && c !== '{') {
    const m = /^[^\s#,\]}]*/.exec(text.slice(i, i + 200));
    return i + (m?.[0].length ?? 0);
  }
  let depth = 0;
  let j = i;
  while (j < text.length) {
    j = skipTrivia(text, j);
    const d = text[j];
    if (d === '"' || d === "'") j = stringEnd(text, j);
    else {
      if (d === '[' || d === '{') depth++;
      else if (d === ']' || d === '}') depth--;
      j++;
      if (depth === 0) return j;
    }
  }
  return j;
}

/** A dotted key at `i` (bare, "quoted", 'literal' parts), or undefined. */
function readKey(text: string, i: number): Key | undefined {
  const parts: string[] = [];
  const raw: string[] = [];
  for (;;) {
    i = skipSpaces(text, i);
    const c = text[i];
    let end: number;
    let part: string;
    if (c === '"' || c === "'") {
      end = stringEnd(text, i);
      const r = text.slice(i, end);
      if (r.length < 2 || r[r.length - 1] !== c || r.startsWith(c.repeat(3))) return undefined;
      if (c === "'") part = r.slice(1, -1);
      else {
        try {
          part = JSON.parse(r) as string;
        } catch {
          return undefined;
        }
      }
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i, i + 200));
      if (!m) return undefined;
      end = i + m[0].length;
      part = m[0];
    }
    parts.push(part);
    raw.push(text.slice(i, end));
    const next = skipSpaces(text, end);
    if (text[next] !== '.') return { parts, raw, end: next };
    i = next + 1;
  }
}

/** Every `key = value` pair at a table's top level, with its table; undefined where the text is not read so. */
function pairs(text: string): Pair[] | undefined {
  const out: Pair[] = [];
  let table: string[] = [];
  let i = skipTrivia(text, 0);
  while (i < text.length) {
    if (text[i] === '[') {
      const array = text[i + 1] === '[';
      const key = readKey(text, i + (array ? 2 : 1));
      const close = array ? ']]' : ']';
      if (!key || !text.startsWith(close, key.end)) return undefined;
      // Keys under an array of tables are never a server's.
      table = array ? ['\0', ...key.parts] : key.parts;
      i = skipTrivia(text, key.end + close.length);
      continue;
    }
    const key = readKey(text, i);
    if (!key || text[key.end] !== '=') return undefined;
    const valueAt = skipSpaces(text, key.end + 1);
    const end = valueEnd(text, valueAt);
    out.push({ path: [...table, ...key.parts], raw: key.raw, tableParts: table.length, start: i, valueAt, end });
    i = skipTrivia(text, end);
  }
  return out;
}

/** The members of the inline table whose `{` is at `open`: each `key = value`, the `}`, the end of the last one. */
function inlineMembers(
  text: string,
  open: number,
): { keys: (Key & { start: number; valueAt: number; valueEnd: number })[]; close: number; last: number } | undefined {
  const keys: (Key & { start: number; valueAt: number; valueEnd: number })[] = [];
  let last = open + 1;
  let i = open + 1;
  for (;;) {
    i = skipTrivia(text, i);
    if (i >= text.length) return undefined;
    if (text[i] === '}') return { keys, close: i, last };
    if (text[i] === ',') {
      last = ++i;
      continue;
    }
    const key = readKey(text, i);
    if (!key || text[key.end] !== '=') return undefined;
    const valueAt = skipSpaces(text, key.end + 1);
    const end = valueEnd(text, valueAt);
    keys.push({ ...key, start: i, valueAt, valueEnd: end });
    last = i = end;
  }
}

const same = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, n) => x === b[n]);

/** Where server `name` is written: an inline table, dotted keys, or neither (a table header, nothing, unreadable). */
type Site =
  | { form: 'inline'; pair: Pair }
  | { form: 'dotted'; pairs: Pair[]; enabled?: Pair }
  | { form: 'other'; within?: 'inline' };

function siteOf(text: string, name: string): Site {
  const all = pairs(text);
  if (!all) return { form: 'other' };
  const at = ['mcp_servers', name];
  const whole = all.find((p) => same(p.path, at));
  if (whole) return text[whole.valueAt] === '{' ? { form: 'inline', pair: whole } : { form: 'other' };
  const dotted = all.filter((p) => p.tableParts < 2 && p.path.length > 2 && same(p.path.slice(0, 2), at));
  if (dotted.length > 0) {
    const enabled = dotted.find((p) => p.path.length === 3 && p.path[2] === 'enabled');
    return { form: 'dotted', pairs: dotted, ...(enabled ? { enabled } : {}) };
  }
  // `mcp_servers = { mem = { … } }`: the server inside another inline table.
  if (all.some((p) => p.path.length === 1 && p.path[0] === 'mcp_servers')) return { form: 'other', within: 'inline' };
  return { form: 'other' };
}

/** How server `name` is written, when it is not its own table: for what the switch says and refuses. */
export function tomlServerForm(text: string, name: string): 'inline' | 'dotted' | 'in-inline' | 'other' {
  const site = siteOf(text, name);
  return site.form === 'other' ? (site.within === 'inline' ? 'in-inline' : 'other') : site.form;
}

const lineStart = (text: string, i: number): number => text.lastIndexOf('\n', i - 1) + 1;
const lineEnd = (text: string, i: number): number => {
  const e = text.indexOf('\n', i);
  return e < 0 ? text.length : e;
};
const splice = (text: string, from: number, to: number, put: string): string =>
  text.slice(0, from) + put + text.slice(to);

/** The dotted line that turns server `name` off, written like `like` (its indentation and key prefix). */
function dottedLine(text: string, like: Pair, offLine: string): string {
  const indent = /^[ \t]*/.exec(text.slice(lineStart(text, like.start), like.start))?.[0] ?? '';
  return `${indent}${like.raw.slice(0, 2 - like.tableParts).join('.')}.${offLine}`;
}

/**
 * The text with server `name` turned off where it is written as an inline table or dotted keys (`offLine` is the
 * line a table gets, `enabled = false # …`), or undefined when it is written neither way.
 */
export function tomlServerOff(text: string, name: string, offLine: string): string | undefined {
  const site = siteOf(text, name);
  if (site.form === 'dotted') {
    if (site.enabled) {
      const s = site.enabled;
      return splice(text, lineStart(text, s.start), lineEnd(text, s.end), dottedLine(text, s, offLine));
    }
    const after = site.pairs[site.pairs.length - 1]!;
    const at = lineEnd(text, after.end);
    return splice(text, at, at, `\n${dottedLine(text, after, offLine)}`);
  }
  if (site.form !== 'inline') return undefined;
  const m = inlineMembers(text, site.pair.valueAt);
  if (!m) return undefined;
  const enabled = m.keys.find((k) => same(k.parts, ['enabled']));
  if (enabled) return splice(text, enabled.valueAt, enabled.valueEnd, 'false');
  const open = site.pair.valueAt;
  if (m.keys.length === 0)
    return /^\s*$/.test(text.slice(open + 1, m.close))
      ? splice(text, open + 1, m.close, ' enabled = false ')
      : splice(text, open + 1, open + 1, ' enabled = false');
  // After the last member: `, enabled = false`, or after a trailing comma `enabled = false,`.
  return splice(text, m.last, m.last, text[m.last - 1] === ',' ? ' enabled = false,' : ', enabled = false');
}

/**
 * The text with tomlServerOff taken back for server `name`: its `enabled = false` removed, or the value `base` (the
 * text before the switch) had put back. Unchanged when the server is not written so or is not off.
 */
export function tomlServerBack(base: string, text: string, name: string): string {
  const site = siteOf(text, name);
  const was = siteOf(base, name);
  if (site.form === 'dotted' && site.enabled && /^false\b/.test(text.slice(site.enabled.valueAt))) {
    const s = site.enabled;
    const from = lineStart(text, s.start);
    if (was.form === 'dotted' && was.enabled) {
      const b = was.enabled;
      return splice(text, from, lineEnd(text, s.end), base.slice(lineStart(base, b.start), lineEnd(base, b.end)));
    }
    return splice(text, from, Math.min(lineEnd(text, s.end) + 1, text.length), '');
  }
  if (site.form !== 'inline') return text;
  const m = inlineMembers(text, site.pair.valueAt);
  const n = m?.keys.findIndex((k) => same(k.parts, ['enabled'])) ?? -1;
  const k = m?.keys[n];
  if (!m || !k || text.slice(k.valueAt, k.valueEnd) !== 'false') return text;
  if (was.form === 'inline') {
    const b = inlineMembers(base, was.pair.valueAt)?.keys.find((x) => same(x.parts, ['enabled']));
    if (b) return splice(text, k.valueAt, k.valueEnd, base.slice(b.valueAt, b.valueEnd));
  }
  const prev = m.keys[n - 1];
  const next = m.keys[n + 1];
  if (prev && /^\s*,\s*$/.test(text.slice(prev.valueEnd, k.start))) return splice(text, prev.valueEnd, k.valueEnd, '');
  if (next) return splice(text, k.start, next.start, '');
  const inner = splice(text, k.start, k.valueEnd, '').slice(site.pair.valueAt + 1, m.close - (k.valueEnd - k.start));
  return /^\s*$/.test(inner) ? splice(text, site.pair.valueAt + 1, m.close, '') : splice(text, k.start, k.valueEnd, '');
}
