/**
 * One member of a JSON object removed or added in place, touching nothing else: jsonc-parser's `modify` removes the
 * comments between a removed member and its neighbour and reformats the whole line an edit lands on (a neighbouring
 * one-line entry was expanded, a kept entry's comment lost). Here a removal takes exactly the member's text and one
 * separating comma (its line too when nothing else is left on it; every comment stays), and an addition writes the
 * new member after the last one, in the file's indentation, leaving its neighbours' bytes as they are. Pure.
 */
import { findNodeAtLocation, parseTree, type FormattingOptions, type JSONPath, type Node } from 'jsonc-parser';

const lineStart = (text: string, i: number): number => text.lastIndexOf('\n', i - 1) + 1;

/** The offset of the line end at or after `i` (before a `\r\n`). */
function lineEnd(text: string, i: number): number {
  const e = text.indexOf('\n', i);
  if (e < 0) return text.length;
  return text[e - 1] === '\r' ? e - 1 : e;
}

const skipSpaces = (text: string, i: number): number => {
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
};

/** Past white space and comments. */
function skipTrivia(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('//', i)) i = lineEnd(text, i);
    else if (text.startsWith('/*', i)) {
      const e = text.indexOf('*/', i + 2);
      i = e < 0 ? text.length : e + 2;
    } else return i;
  }
}

/** The offset of the comma after `i` (past white space and comments), or -1. */
function commaAfter(text: string, i: number): number {
  const j = skipTrivia(text, i);
  return text[j] === ',' ? j : -1;
}

const end = (n: Node): number => n.offset + n.length;

/** The object at `path` and the member named `key` in it (the first of that name, as jsonc-parser edits). */
function memberAt(text: string, path: JSONPath): { object: Node; index: number } | undefined {
  const key = path[path.length - 1];
  if (typeof key !== 'string') return undefined;
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const object = root && findNodeAtLocation(root, path.slice(0, -1));
  if (object?.type !== 'object') return undefined;
  const index = (object.children ?? []).findIndex((p) => p.children?.[0]?.value === key);
  return index < 0 ? undefined : { object, index };
}

const cut = (text: string, cuts: [number, number][]): string =>
  [...cuts].sort((a, b) => b[0] - a[0]).reduce((t, [from, to]) => t.slice(0, from) + t.slice(to), text);

/** The text without the member at `path`, or undefined when `path` names no member of an object. */
export function removeMember(text: string, path: JSONPath): string | undefined {
  const at = memberAt(text, path);
  if (!at) return undefined;
  const members = at.object.children!;
  const member = members[at.index]!;
  const start = member.offset;
  const stop = end(member);
  const cuts: [number, number][] = [];
  // Its own comma when one follows it, else the one before it (the previous member's).
  const own = commaAfter(text, stop);
  const prev = at.index > 0 ? commaAfter(text, end(members[at.index - 1]!)) : -1;
  let tail = stop;
  if (own >= 0) {
    if (/^\s*$/.test(text.slice(stop, own))) cuts.push([start, own + 1]);
    else cuts.push([start, stop], [own, own + 1]);
    tail = own + 1;
  } else {
    if (prev >= 0) cuts.push([prev, prev + 1]);
    cuts.push([start, stop]);
  }
  const from = lineStart(text, start);
  const beginsLine = /^[ \t]*$/.test(text.slice(from, start));
  const next = skipSpaces(text, tail);
  const last = cuts[cuts.length - 1]!;
  if (beginsLine && next === lineEnd(text, next)) {
    // Nothing else left on its lines: they go, line end and all (a comment on them stays, and the lines with it).
    const to = next + (text[next] === '\r' ? 2 : text[next] === '\n' ? 1 : 0);
    const inside = cuts.filter(([a]) => a >= from);
    const left = cut(
      text.slice(from, to),
      inside.map(([a, b]) => [a - from, b - from]),
    );
    if (/^\s*$/.test(left)) return cut(text, [...cuts.filter(([a]) => a < from), [from, to]]);
    return cut(text, cuts);
  }
  // The last member, its line closed by the object's end (`"b": 2 }}`): from the comma before it, as it was added.
  if (
    beginsLine &&
    own < 0 &&
    prev >= 0 &&
    /^\s*$/.test(text.slice(prev + 1, start)) &&
    !/^\/[/*]/.test(text.slice(next))
  )
    return cut(text, [[prev, stop]]);
  if (beginsLine || own >= 0) last[1] = next;
  else {
    // `{ "a": 1, "b": 2 }` without "b": the space before it goes too.
    let before = start;
    while (before > 0 && (text[before - 1] === ' ' || text[before - 1] === '\t')) before--;
    last[0] = Math.max(before, prev + 1);
  }
  return cut(text, cuts);
}

/** A JSON value laid out as the file is: `unit` per level, continuation lines starting at `indent`. */
function pretty(value: unknown, unit: string, indent: string, eol: string): string {
  return JSON.stringify(value, null, unit)
    .split('\n')
    .join(eol + indent);
}

/**
 * The text with `value` added at `path` as a new member of the deepest object on the path that exists (the missing
 * objects around it written with it), after its last member; undefined when `path` already holds a value or leads
 * through something that is not an object.
 */
export function insertMember(text: string, path: JSONPath, value: unknown, fmt: FormattingOptions): string | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (root?.type !== 'object' || path.some((k) => typeof k !== 'string')) return undefined;
  let n = path.length - 1;
  let object = findNodeAtLocation(root, path.slice(0, n));
  while (!object && n > 0) object = findNodeAtLocation(root, path.slice(0, --n));
  if (object?.type !== 'object' || findNodeAtLocation(object, [path[n]!])) return undefined;
  const wrapped = path.slice(n + 1).reduceRight<unknown>((v, k) => ({ [k]: v }), value);
  const key = JSON.stringify(path[n]);
  const eol = fmt.eol ?? '\n';
  const unit = fmt.insertSpaces === false ? '\t' : ' '.repeat(fmt.tabSize ?? 2);
  const members = object.children ?? [];
  const lastMember = members[members.length - 1];
  if (!lastMember) {
    const close = end(object) - 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart(text, object.offset)))![0];
    const line = `${eol}${indent}${unit}${key}: ${pretty(wrapped, unit, indent + unit, eol)}`;
    const inner = text.slice(object.offset + 1, close);
    if (/^\s*$/.test(inner)) return text.slice(0, object.offset + 1) + line + eol + indent + text.slice(close);
    return text.slice(0, object.offset + 1) + line + text.slice(object.offset + 1);
  }
  const lastEnd = end(lastMember);
  // An object written on one line stays on one line: the member is added compact, as in a file on one line.
  if (!text.slice(object.offset, lastMember.offset).includes('\n'))
    return `${text.slice(0, lastEnd)},${key}: ${JSON.stringify(wrapped)}${text.slice(lastEnd)}`;
  const indent = /^[ \t]*/.exec(text.slice(lineStart(text, lastMember.offset)))![0];
  const trailing = commaAfter(text, lastEnd);
  // On a line of its own after the last member, below a comment that ends the last member's line.
  let at = skipSpaces(text, trailing >= 0 ? trailing + 1 : lastEnd);
  if (text.startsWith('//', at)) at = lineEnd(text, at);
  else if (at !== lineEnd(text, at)) at = trailing >= 0 ? trailing + 1 : lastEnd;
  const line = `${eol}${indent}${key}: ${pretty(wrapped, unit, indent, eol)}${trailing >= 0 ? ',' : ''}`;
  const withLine = text.slice(0, at) + line + text.slice(at);
  return trailing >= 0 ? withLine : `${withLine.slice(0, lastEnd)},${withLine.slice(lastEnd)}`;
}
