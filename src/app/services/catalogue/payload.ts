/**
 * The catalogue start cache's payload: the servers read from snapshot files as parseSnapshot and the merge left them,
 * with each tool cut to what ranking and a first answer read (name, title, description, annotations and the text of
 * its parameters), and the SHA-256 of the files' bytes. A cold `discover` loads this instead of parsing the whole
 * snapshot with its schemas; a command that needs schemas reads the snapshot itself.
 *
 * Layout: u32 length of the head, u32 length of the Latin-1 part, the head (UTF-8 JSON: digest, servers without
 * tools, a ToolRow per tool), the Latin-1 part, the UTF-16LE part. The descriptions and parameter texts (most of the
 * bytes) are decoded straight from the buffer, never parsed as JSON strings, and both encodings keep every string
 * exactly (lone surrogates included, which UTF-8 would not).
 */
import { PARAM_TEXT, paramText } from '../../../core/discover/bm25.js';
import { PARAM_NAMES, joinedParams, joinedTopParams, topParams } from '../../../core/discover/param-names.js';
import type { JsonObject, ServerSnapshot, ToolSnapshot } from '../../../core/types.js';

/** Bump whenever the payload's layout or what goes into it changes. */
export const CATALOGUE_CACHE_VERSION = 'catalogue-v2';

/**
 * A tool as the start cache holds it: no schemas; its parameters' text under PARAM_TEXT (paramText reads it) and its
 * top-level parameter names under PARAM_NAMES (topParams reads them).
 */
export type LeanTool = ToolSnapshot & { [PARAM_TEXT]: string; [PARAM_NAMES]: string };

export interface LeanCatalogue {
  /** The servers, each tool a LeanTool. */
  servers: ServerSnapshot[];
  /** SHA-256 of the snapshot files' bytes, as readSnapshotSet gave it. */
  digest: string;
}

/**
 * Per tool: name, title, annotations, then each text as length · 2 + its part (0 Latin-1, 1 UTF-16), -1 when absent,
 * the last the top-level parameter names (param-names.ts joinedParams).
 */
type ToolRow = [
  name: string,
  title: string | null,
  annotations: JsonObject | null,
  description: number,
  params: number,
  names: number,
];
interface Head {
  digest: string;
  servers: (Omit<ServerSnapshot, 'tools'> & { tools: ToolRow[] })[];
}

const HEADER_BYTES = 8;
/** Every character of the text is one Latin-1 byte (most tool texts: ASCII). */
const LATIN1 = /^[\u0000-\u00ff]*$/;
/** LATIN1's answer; an ASCII text (its UTF-8 as long as it is, counted without a scan by regular expression) is one. */
const isLatin1 = (text: string): boolean => Buffer.byteLength(text, 'utf8') === text.length || LATIN1.test(text);

/** The payload for these servers (as readSnapshotSet returned them) and their files' digest. */
export function encodeCatalogue(servers: readonly ServerSnapshot[], digest: string): Uint8Array {
  return Buffer.concat(encodeCatalogueParts(servers, digest));
}

/** encodeCatalogue's bytes as the arrays they are made of, in order (written as they are, never joined). */
export function encodeCatalogueParts(servers: readonly ServerSnapshot[], digest: string): Uint8Array[] {
  const { lengths, headBytes, texts } = catalogueHead(servers, digest);
  return [lengths, headBytes, textBytes(texts[0], 'latin1', 1), textBytes(texts[1], 'utf16le', 2)];
}

/** Bytes of the texts' parts a chunk of catalogueSource holds. */
const CHUNK_BYTES = 1 << 20;

/**
 * encodeCatalogue's bytes as a source of parts that gives them anew at each call (the cache file takes one pass:
 * sealed-file.ts sealOnePass hashes each part as it is written; sealSource, two). The head (JSON, one piece per
 * server) and the texts come in chunks of one reused buffer, each valid until the next part is asked for: neither the
 * ~15 MB head nor the ~100 MB of a big catalogue's texts is ever held as bytes, nor the head as one string.
 */
export function catalogueSource(
  servers: readonly ServerSnapshot[],
  digest: string,
  chunkBytes = CHUNK_BYTES,
): () => Iterable<Uint8Array> {
  const texts: [string[], string[]] = [[], []];
  // JSON.stringify(head) in pieces: the UTF-8 of complete JSON texts (well formed: lone surrogates come escaped)
  // and of the punctuation between them, joined, is the UTF-8 of the whole.
  // The commas are pieces of their own: a comma joined to a server's JSON would make a string the lengths and the
  // chunks must each flatten first.
  const pieces = [`{"digest":${JSON.stringify(digest)},"servers":[`];
  servers.forEach((server, i) => {
    if (i > 0) pieces.push(',');
    pieces.push(JSON.stringify(serverHead(server, texts)));
  });
  pieces.push(']}');
  const lengths = headerBytes(
    pieces.reduce((n, p) => n + Buffer.byteLength(p, 'utf8'), 0),
    texts[0].reduce((n, t) => n + t.length, 0),
  );
  const chunk = Buffer.allocUnsafe(Math.max(2, chunkBytes & ~1));
  return function* () {
    yield lengths;
    yield* headChunks(pieces, chunk);
    yield* textChunks(texts[0], 'latin1', 1, chunk);
    yield* textChunks(texts[1], 'utf16le', 2, chunk);
  };
}

/** The payload's lengths, head and texts (Latin-1 ones, then the others) before any text becomes bytes. */
function catalogueHead(
  servers: readonly ServerSnapshot[],
  digest: string,
): { lengths: Buffer; headBytes: Buffer; texts: [string[], string[]] } {
  const texts: [string[], string[]] = [[], []];
  const head: Head = { digest, servers: servers.map((server) => serverHead(server, texts)) };
  const headBytes = Buffer.from(JSON.stringify(head), 'utf8');
  const lengths = headerBytes(
    headBytes.byteLength,
    texts[0].reduce((n, t) => n + t.length, 0),
  );
  return { lengths, headBytes, texts };
}

/** A server as the head holds it, its tools' texts added to `texts` (Latin-1 ones, then the others) in order. */
function serverHead(server: ServerSnapshot, texts: [string[], string[]]): Head['servers'][number] {
  const put = (text: string): number => {
    const part = isLatin1(text) ? 0 : 1;
    texts[part].push(text);
    return text.length * 2 + part;
  };
  const { tools, ...rest } = server;
  return {
    ...rest,
    tools: tools.map((t): ToolRow => {
      const description = t.description === undefined ? -1 : put(t.description);
      const params = put(paramText({ id: '', server: rest.name, tool: t }));
      const names = put(joinedTopParams(t));
      return [t.name, t.title ?? null, t.annotations ?? null, description, params, names];
    }),
  };
}

/** The payload's first 8 bytes: the head's length and the Latin-1 part's. */
function headerBytes(headBytes: number, latin1Bytes: number): Buffer {
  const lengths = Buffer.alloc(HEADER_BYTES);
  lengths.writeUInt32LE(headBytes, 0);
  lengths.writeUInt32LE(latin1Bytes, 4);
  return lengths;
}

/** The pieces' UTF-8 in chunks of `chunk` (a piece is never cut: one longer than the chunk is given alone). */
function* headChunks(pieces: readonly string[], chunk: Buffer): Generator<Uint8Array> {
  let at = 0;
  for (const piece of pieces) {
    const n = Buffer.byteLength(piece, 'utf8');
    if (at + n > chunk.byteLength && at > 0) {
      yield chunk.subarray(0, at);
      at = 0;
    }
    if (n > chunk.byteLength) yield Buffer.from(piece, 'utf8');
    else at += chunk.write(piece, at, 'utf8');
  }
  if (at > 0) yield chunk.subarray(0, at);
}

/** The texts one after the other in one buffer, written text by text (never joined first into one more string). */
function textBytes(texts: readonly string[], encoding: 'latin1' | 'utf16le', unit: number): Buffer {
  const out = Buffer.alloc(texts.reduce((n, t) => n + t.length, 0) * unit);
  let at = 0;
  for (const t of texts) at += out.write(t, at, encoding);
  return out;
}

/** textBytes's bytes in chunks of `chunk` (filled, given out, then filled again; a text may span two). */
function* textChunks(
  texts: readonly string[],
  encoding: 'latin1' | 'utf16le',
  unit: number,
  chunk: Buffer,
): Generator<Uint8Array> {
  let at = 0;
  for (const t of texts) {
    for (let from = 0; from < t.length;) {
      const n = chunk.write(from === 0 ? t : t.slice(from), at, encoding);
      at += n;
      from += n / unit;
      if (at + unit > chunk.byteLength) {
        yield chunk.subarray(0, at);
        at = 0;
      }
    }
  }
  if (at > 0) yield chunk.subarray(0, at);
}

/**
 * The server with each tool cut to what the start cache keeps of it (a LeanTool, as decodeCatalogue returns it):
 * a first run that ranks needs no schemas, so a big snapshot's are dropped as each server is read.
 */
export function leanServer(server: ServerSnapshot): ServerSnapshot {
  return {
    ...server,
    tools: server.tools.map((t) => {
      const tool: ToolSnapshot = { name: t.name };
      if (t.title !== undefined) tool.title = t.title;
      if (t.description !== undefined) tool.description = t.description;
      if (t.annotations !== undefined) tool.annotations = t.annotations;
      (tool as LeanTool)[PARAM_TEXT] = paramText({ id: '', server: server.name, tool: t });
      (tool as LeanTool)[PARAM_NAMES] = joinedParams(topParams(t));
      return tool;
    }),
  };
}

/** The servers and digest of a payload, or null when the bytes do not hold one (then the snapshot is read instead). */
export function decodeCatalogue(payload: Uint8Array): LeanCatalogue | null {
  try {
    const buf = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    if (buf.byteLength < HEADER_BYTES) return null;
    const headEnd = HEADER_BYTES + buf.readUInt32LE(0);
    const latin1End = headEnd + buf.readUInt32LE(4);
    if (latin1End > buf.byteLength || (buf.byteLength - latin1End) % 2 !== 0) return null;
    const head = JSON.parse(buf.toString('utf8', HEADER_BYTES, headEnd)) as Head;
    if (typeof head?.digest !== 'string' || !Array.isArray(head.servers)) return null;
    // Two decodes, then slices: Latin-1 bytes become a one-byte string at copying speed, and the few texts with
    // other characters share one two-byte string.
    const texts = [buf.toString('latin1', headEnd, latin1End), buf.toString('utf16le', latin1End)];
    const at = [0, 0];
    const take = (code: number): string => {
      if (!Number.isInteger(code) || code < 0) throw new Error('bad length');
      const part = code % 2;
      const end = at[part]! + (code - part) / 2;
      if (end > texts[part]!.length) throw new Error('bad length');
      const text = texts[part]!.slice(at[part], end);
      at[part] = end;
      return text;
    };
    const servers = head.servers.map(({ tools, ...rest }): ServerSnapshot => ({
      ...rest,
      tools: tools.map(([name, title, annotations, description, params, names]) => {
        if (typeof name !== 'string') throw new Error('bad tool');
        const tool: ToolSnapshot = { name };
        if (title !== null) tool.title = title;
        if (description !== -1) tool.description = take(description);
        if (annotations !== null) tool.annotations = annotations;
        (tool as LeanTool)[PARAM_TEXT] = take(params);
        (tool as LeanTool)[PARAM_NAMES] = take(names);
        return tool;
      }),
    }));
    const whole = at[0] === texts[0]!.length && at[1] === texts[1]!.length;
    return whole ? { servers, digest: head.digest } : null;
  } catch {
    return null;
  }
}
