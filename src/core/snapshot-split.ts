/**
 * A snapshot document cut at its servers without parsing it whole: the byte range of each element of the top-level
 * "servers" array, and the rest of the document with that array emptied. Parsing the pieces one at a time gives the
 * same values as JSON.parse of the whole text, while only one server's objects (not the whole text as a string and
 * every schema of every server) are alive at once.
 *
 * The cut is structural only: strings are skipped by their quotes and escapes, nesting by its brackets. What it does
 * not understand (no object at the top, "servers" twice or not an array, bytes after the end) it leaves to the whole
 * parse (undefined); a piece that is not valid JSON fails its own JSON.parse, and the caller then parses the whole
 * text, so every error is the one the whole parse reports. A big server is cut the same way at its tools.
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;

export interface SplitSnapshot {
  /** The document's text with the "servers" array replaced by `[]` (its other keys parse as they would whole). */
  head: string;
  /** [start, end) byte offsets of each server's JSON text, in order. */
  servers: [number, number][];
}

export const isSpace = (b: number | undefined): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** The backslashes just before `end`, counted back no further than `floor`: an odd run escapes the byte at `end`. */
export function backslashesBefore(bytes: Uint8Array, end: number, floor: number): number {
  let slashes = 0;
  while (end - 1 - slashes >= floor && bytes[end - 1 - slashes] === BACKSLASH) slashes++;
  return slashes;
}

/** The snapshot's bytes cut at its servers (a UTF-8 byte-order mark is skipped); undefined when not cut cleanly. */
export function splitSnapshot(bytes: Buffer): SplitSnapshot | undefined {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return splitObject(bytes, 'servers', bom, bytes.byteLength);
}

/**
 * A server's JSON text, bytes[from, to), parsed as JSON.parse would, its tools one at a time when it is big: one
 * string for the whole text would be a large object (V8 gives each its own fresh pages, several times the cost of
 * decoding into small strings on this VM), the tools' texts are small ones. Throws what JSON.parse throws (the
 * caller then parses the whole file, which reports the error).
 */
export function parseServerText(bytes: Buffer, from: number, to: number): unknown {
  const split = to - from > PIECES_FROM_BYTES ? splitObject(bytes, 'tools', from, to) : undefined;
  if (split === undefined) return JSON.parse(bytes.toString('utf8', from, to));
  const server = JSON.parse(split.head) as Record<string, unknown>;
  // The key keeps its place in the object (it is there, as `[]`); its elements are those of the whole parse.
  server.tools = split.servers.map(([f, t]) => JSON.parse(bytes.toString('utf8', f, t)) as unknown);
  return server;
}

/** A server text above this many bytes is parsed tool by tool (parseServerText). */
const PIECES_FROM_BYTES = 32 << 10;

/**
 * bytes[begin, end) holding one JSON object, cut at the elements of its array member `name` (the `servers` field of
 * the result); undefined when not cut cleanly.
 */
export function splitObject(bytes: Buffer, name: string, begin: number, end: number): SplitSnapshot | undefined {
  const n = end;
  let at = begin;
  const start = at;
  const space = (): void => {
    while (at < n && isSpace(bytes[at])) at++;
  };
  /** Past the string whose opening quote is at `at`; false when it does not end. */
  const string = (): boolean => {
    const open = at + 1;
    let i = open;
    for (;;) {
      const q = bytes.indexOf(QUOTE, i);
      if (q < 0 || q >= n) return false;
      if (backslashesBefore(bytes, q, open) % 2 === 0) {
        at = q + 1;
        return true;
      }
      i = q + 1;
    }
  };
  /** Past the value starting at `at`; false when it does not end. Scalars end at the next delimiter. */
  const value = (): boolean => {
    const b = bytes[at];
    if (b === QUOTE) return string();
    if (b !== OPEN_OBJECT && b !== OPEN_ARRAY) {
      while (
        at < n &&
        !isSpace(bytes[at]) &&
        bytes[at] !== COMMA &&
        bytes[at] !== CLOSE_OBJECT &&
        bytes[at] !== CLOSE_ARRAY
      )
        at++;
      return true;
    }
    let depth = 0;
    while (at < n) {
      const c = bytes[at]!;
      if (c === QUOTE) {
        if (!string()) return false;
        continue;
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
      at++;
      if (depth === 0) return true;
    }
    return false;
  };

  /** Past the comma-separated items up to `close` (just after the opening bracket); false when they do not end. */
  const items = (close: number, item: () => boolean): boolean => {
    space();
    if (bytes[at] !== close) {
      for (;;) {
        space();
        if (!item()) return false;
        space();
        if (bytes[at] !== COMMA) break;
        at++;
      }
      if (bytes[at] !== close) return false;
    }
    at++;
    return true;
  };

  let servers: [number, number][] | undefined;
  let arrayStart = 0;
  let arrayEnd = 0;
  const server = (): boolean => {
    const from = at;
    if (!value() || at === from) return false;
    servers!.push([from, at]);
    return true;
  };
  /** One member of the top-level object: "servers" is cut at its elements, any other value skipped. */
  const member = (): boolean => {
    if (bytes[at] !== QUOTE) return false;
    const keyStart = at;
    if (!string()) return false;
    let key: unknown;
    try {
      key = JSON.parse(bytes.toString('utf8', keyStart, at));
    } catch {
      return false;
    }
    space();
    if (bytes[at] !== COLON) return false;
    at++;
    space();
    if (key !== name) return value();
    if (servers !== undefined || bytes[at] !== OPEN_ARRAY) return false;
    servers = [];
    arrayStart = at;
    at++;
    if (!items(CLOSE_ARRAY, server)) return false;
    arrayEnd = at;
    return true;
  };

  space();
  if (bytes[at] !== OPEN_OBJECT) return undefined;
  at++;
  space();
  if (bytes[at] === CLOSE_OBJECT || !items(CLOSE_OBJECT, member)) return undefined;
  space();
  if (at !== n || servers === undefined) return undefined;
  const head = `${bytes.toString('utf8', start, arrayStart)}[]${bytes.toString('utf8', arrayEnd, n)}`;
  return { head, servers };
}
