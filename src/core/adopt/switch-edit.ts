/**
 * The switch as edits of one client file, and their reversal. A switch turns the adopted servers off in the
 * client's own terms (a JSON path to delete or set, a name added to a list the client reads) and adds the
 * mcp-smart entry. JSON files are edited in place (jsonc-parser: comments, order and indentation kept); Codex TOML
 * line by line. The reversal puts back exactly what the switch changed and nothing else, so a file nobody else
 * touched comes back byte for byte, and a change made since (by the user or the client) is kept and named. Pure.
 */
import { applyEdits, modify, type FormattingOptions, type JSONPath } from 'jsonc-parser';
import { isPlainObject } from '../config/key-path.js';
import { insertMember, removeMember } from './json-member.js';
import { tomlServerBack, tomlServerOff } from './toml-server.js';

/** One change of a file: `set` a JSON path (undefined deletes it), `list-add` names to a list, `toml-off` a Codex table. */
export type SwitchEdit =
  | { kind: 'set'; path: JSONPath; value: unknown }
  | { kind: 'list-add'; path: JSONPath; names: string[] }
  | { kind: 'toml-off'; table: string }
  | { kind: 'toml-add'; table: string; entry: Record<string, unknown> };

/** A value at a JSON path of a parsed document, or undefined. */
export function valueAt(doc: unknown, path: JSONPath): unknown {
  let at: unknown = doc;
  for (const key of path) {
    if (Array.isArray(at) && typeof key === 'number') at = at[key];
    else if (isPlainObject(at) && typeof key === 'string' && Object.hasOwn(at, key)) at = at[key];
    else return undefined;
  }
  return at;
}

/** Indentation and line ends as the file already has them, so an edit looks like the rest of it. */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return indent.startsWith('\t')
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: indent.length, eol };
}

/** Past this, the line an edit lands on is left as it is laid out (see setJson). */
const LONG_LINE = 2_000;

/** The length of the line holding `offset`. */
function lineLength(text: string, offset: number): number {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return (end < 0 ? text.length : end) - start;
}

function setJson(text: string, path: JSONPath, value: unknown): string {
  if (text.trim() === '') text = '{}';
  // A member removed or added touches only its own text (json-member.ts): jsonc-parser's modify reformats the line
  // it lands on and drops the comments beside a removed member, a kept neighbour's among them.
  if (value === undefined) {
    const removed = removeMember(text, path);
    if (removed !== undefined) return removed;
  }
  // jsonc-parser formats the whole line an insertion or a removal lands on, applying its edits one at a time: on a
  // file written on one line (a compact ~/.claude.json) that rewrote the file's layout and took time quadratic in its
  // size (minutes for a few MB). A file on one line, or a long line, keeps its layout: the edit is written compact.
  const plain = modify(text, path, value, {});
  if (!text.includes('\n') || plain.some((e) => lineLength(text, e.offset) > LONG_LINE)) return applyEdits(text, plain);
  const added = value === undefined ? undefined : insertMember(text, path, value, formattingOf(text));
  return added ?? applyEdits(text, modify(text, path, value, { formattingOptions: formattingOf(text) }));
}

const stringList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/**
 * Our own config's text with the edits applied in place (adopt's server map, replay's weights): a byte-order mark
 * kept, and a final newline as every file we write whole ends with one.
 */
export function editConfigText(text: string, doc: unknown, edits: readonly SwitchEdit[]): string {
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const edited = applyJsonEdits(text.slice(bom.length), doc, edits);
  return bom + (edited.endsWith('\n') ? edited : `${edited}\n`);
}

/** The JSON file's text with the edits applied (`doc` is its parsed value, for the lists). */
export function applyJsonEdits(text: string, doc: unknown, edits: readonly SwitchEdit[]): string {
  let out = text;
  for (const e of edits) {
    if (e.kind === 'set') out = setJson(out, e.path, e.value);
    else if (e.kind === 'list-add') {
      const have = stringList(valueAt(doc, e.path));
      const add = e.names.filter((n) => !have.includes(n));
      if (add.length > 0) out = setJson(out, e.path, [...have, ...add]);
    }
  }
  return out;
}

/** A deep copy of a JSON value. */
const copy = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** Sets (or, with undefined, deletes) the value at `path` in `doc`, creating objects on the way. */
function setIn(doc: unknown, path: JSONPath, value: unknown): void {
  let at = doc as Record<string, unknown>;
  for (const key of path.slice(0, -1)) {
    const next = at[String(key)];
    if (!isPlainObject(next)) at[String(key)] = {};
    at = at[String(key)] as Record<string, unknown>;
  }
  const last = String(path[path.length - 1]);
  if (value === undefined) delete at[last];
  else at[last] = value;
}

/**
 * The path to delete so that removing `path` also removes the objects the switch created around it: the highest
 * ancestor the base did not have, when nothing but this path is left under it.
 */
function deletionRoot(base: unknown, doc: unknown, path: JSONPath): JSONPath {
  let root = path;
  for (let n = path.length - 1; n >= 1; n--) {
    const parent = path.slice(0, n);
    const v = valueAt(doc, parent);
    if (valueAt(base, parent) !== undefined || !isPlainObject(v) || Object.keys(v).length !== 1) break;
    root = parent;
  }
  return root;
}

/**
 * The edits that undo `edits` in `current` (parsed), given `base`, the document before the switch: a path set back
 * to its old value only where it still holds what the switch put there; a listed name removed only if the switch
 * added it; an object the switch created removed once empty. Returns the reversing edits and the paths that changed
 * since the switch (kept as they are now).
 */
export function reverseJsonEdits(
  base: unknown,
  current: unknown,
  edits: readonly SwitchEdit[],
): { edits: SwitchEdit[]; changedSince: string[] } {
  const out: SwitchEdit[] = [];
  const changedSince: string[] = [];
  const doc = copy(current);
  const put = (path: JSONPath, value: unknown): void => {
    const at = value === undefined ? deletionRoot(base, doc, path) : path;
    out.push({ kind: 'set', path: at, value });
    setIn(doc, at, value);
  };
  for (const e of edits) {
    if (e.kind === 'set') {
      const now = valueAt(doc, e.path);
      const before = valueAt(base, e.path);
      if (sameJson(now, before)) continue;
      // The switch deleted an entry: put it back unless the user wrote another under that name since.
      if (e.value === undefined ? now === undefined : looksSwitched(now, e.value)) put(e.path, copy(before));
      else changedSince.push(e.path.join('.'));
    } else if (e.kind === 'list-add') {
      const had = stringList(valueAt(base, e.path));
      const now = valueAt(doc, e.path);
      const kept = stringList(now).filter((n) => had.includes(n) || !e.names.includes(n));
      const restored = kept.length === 0 && valueAt(base, e.path) === undefined ? undefined : kept;
      if (!sameJson(restored, now)) put(e.path, restored);
    }
  }
  return { edits: out, changedSince };
}

/** Our mcp-smart entry as the switch wrote it, or as a client's add command wrote it (extra `type`, empty `env`). */
function looksSwitched(now: unknown, wrote: unknown): boolean {
  if (!isPlainObject(now) || !isPlainObject(wrote)) return sameJson(now, wrote);
  return sameJson(now.command, wrote.command) && sameJson(now.args, wrote.args);
}

/** Deep equality of JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => sameJson(v, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

// ---- Codex config.toml: line edits, so comments and layout stay as the user wrote them ----

const TABLE_HEADER = /^\s*\[([^[\]]+)\]\s*(?:#.*)?$/;

/** `mcp_servers.name` / `mcp_servers."name"` → its line index, or -1. */
function tableLine(lines: string[], table: string): number {
  return lines.findIndex((l) => {
    const m = TABLE_HEADER.exec(l);
    if (!m) return false;
    const t = /^\s*mcp_servers\s*\.\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*$/.exec(m[1]!);
    if (!t) return false;
    const name = t[1] !== undefined ? (JSON.parse(`"${t[1]}"`) as string) : (t[2] ?? t[3]);
    return name === table;
  });
}

/** The line after the table's last line (the next header, or the end). */
function tableEnd(lines: string[], header: number): number {
  for (let i = header + 1; i < lines.length; i++) if (/^\s*\[/.test(lines[i]!)) return i;
  return lines.length;
}

const ENABLED_LINE = /^\s*enabled\s*=\s*(true|false)\s*(?:#.*)?$/;
export const TOML_OFF_LINE = 'enabled = false # mcp-smart adopt: served through mcp-smart';

const tomlKey = (k: string): string => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));

/** A TOML value for strings, string lists and string maps (inline tables), the only shapes an entry has. */
function tomlValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`;
  if (isPlainObject(v))
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${tomlKey(k)} = ${tomlValue(x)}`)
      .join(', ')} }`;
  throw new Error(`no TOML form for ${typeof v}`);
}

/** `[mcp_servers.<table>]` with one `key = value` line per entry key; nested maps as inline tables. */
function toTomlTable(table: string, entry: Record<string, unknown>): string {
  const lines = Object.entries(entry).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`);
  return `[mcp_servers.${tomlKey(table)}]\n${lines.join('\n')}\n`;
}

/** The TOML text with each `toml-off` table switched off (`enabled = false`) and each `toml-add` table appended. */
export function applyTomlEdits(text: string, edits: readonly SwitchEdit[]): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  for (const e of edits) {
    if (e.kind !== 'toml-off') continue;
    const at = tableLine(lines, e.table);
    if (at < 0) {
      // An inline table or dotted keys: edited in that form (a form it cannot edit is refused before, adopt-plan.ts).
      const off = tomlServerOff(lines.join('\n'), e.table, TOML_OFF_LINE);
      if (off !== undefined) lines.splice(0, lines.length, ...off.split('\n'));
      continue;
    }
    const end = tableEnd(lines, at);
    const enabled = lines.slice(at + 1, end).findIndex((l) => ENABLED_LINE.test(l));
    if (enabled >= 0) lines[at + 1 + enabled] = TOML_OFF_LINE;
    else lines.splice(at + 1, 0, TOML_OFF_LINE);
  }
  let out = lines.join(eol);
  for (const e of edits) {
    if (e.kind !== 'toml-add' || tableLine(lines, e.table) >= 0) continue;
    const sep = out === '' ? '' : out.endsWith(eol) ? eol : eol + eol;
    out += sep + toTomlTable(e.table, e.entry).replace(/\n/g, eol);
  }
  return out;
}

/**
 * The TOML text with the switch taken back: our `enabled = false` line removed (or the user's `enabled = true`
 * line put back), our appended table removed where it still reads as we wrote it. `base` is the text before.
 */
export function reverseTomlEdits(base: string, current: string, edits: readonly SwitchEdit[]): string {
  const eol = current.includes('\r\n') ? '\r\n' : '\n';
  const lines = current.split(/\r?\n/);
  const baseLines = base.split(/\r?\n/);
  for (const e of edits) {
    if (e.kind === 'toml-add') {
      const at = tableLine(lines, e.table);
      if (at < 0) continue;
      let end = tableEnd(lines, at);
      // The file's last line end stays.
      if (end === lines.length && end - 1 > at && lines[end - 1] === '') end--;
      let start = at;
      // The blank line the switch put before the table goes with it.
      if (start > 0 && lines[start - 1] === '' && tableLine(baseLines, e.table) < 0) start--;
      lines.splice(start, end - start);
    }
  }
  for (const e of edits) {
    if (e.kind !== 'toml-off') continue;
    const at = tableLine(lines, e.table);
    if (at < 0) {
      lines.splice(0, lines.length, ...tomlServerBack(baseLines.join('\n'), lines.join('\n'), e.table).split('\n'));
      continue;
    }
    const end = tableEnd(lines, at);
    // Ours, or the same setting typed by hand as the printed switch says.
    const ours = lines.slice(at + 1, end).findIndex((l) => l === TOML_OFF_LINE || /^\s*enabled\s*=\s*false\b/.test(l));
    if (ours < 0) continue;
    const b = tableLine(baseLines, e.table);
    const had = b < 0 ? -1 : baseLines.slice(b + 1, tableEnd(baseLines, b)).findIndex((l) => ENABLED_LINE.test(l));
    if (had >= 0) lines[at + 1 + ours] = baseLines[b + 1 + had]!;
    else lines.splice(at + 1 + ours, 1);
  }
  return lines.join(eol);
}
