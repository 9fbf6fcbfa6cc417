/** Snapshot files: build one from ServerSnapshots, and read, validate and merge saved ones. */
import { SmartError } from '../process/errors.js';
import { createHash } from 'node:crypto';
import { isAbsolute, relative, sep } from 'node:path';
import { READ_AS, parseJsonText, readFileBytes, readFileChunks, stripBom } from '../process/read-file.js';
import { countOf } from '../process/count-text.js';
import {
  malformedToolsNotes,
  MAX_SCHEMA_DEPTH,
  toolAsSent,
  validateTools,
  type ValidateOptions,
} from './tool-validate.js';
import { SNAPSHOT_FORMAT, type ServerSnapshot, type Snapshot } from './types.js';
import { parseServerText, splitSnapshot } from './snapshot-split.js';
import { ChunkedCut } from './snapshot-cut.js';
import { isObject } from './dict.js';
import type { OwnedKind } from '../process/safe-write.js';

/** A snapshot file (`dump -o`): an existing file is replaced only when it is one (safe-write.ts). */
export const SNAPSHOT_KIND: OwnedKind = { mark: /"format"\s*:\s*"mcp-smart\/snapshot@/, what: 'an mcp-smart snapshot' };

/** Where the snapshot is written from: `source` paths are stored relative to `cwd` or under `~`, never absolute. */
export interface SnapshotPaths {
  cwd: string;
  home: string;
}

/** A config path as committed files should hold it: relative inside the project, `~/…` in the home, else as is. */
export function portableSource(source: string, paths: SnapshotPaths): string {
  if (!isAbsolute(source)) return source;
  const rel = relative(paths.cwd, source);
  if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  const inHome = relative(paths.home, source);
  if (paths.home !== '' && inHome !== '' && !inHome.startsWith('..') && !isAbsolute(inHome))
    return `~/${inHome.split(sep).join('/')}`;
  return source;
}

/** The snapshot document. Drops in-memory-only fields (stderr, timings, cache flag and time). */
export function buildSnapshot(servers: ServerSnapshot[], createdAt: string, paths?: SnapshotPaths): Snapshot {
  return {
    format: SNAPSHOT_FORMAT,
    createdAt,
    servers: servers.map((s) =>
      toPersistedServer(paths && s.source !== undefined ? { ...s, source: portableSource(s.source, paths) } : s),
    ),
  };
}

function toPersistedServer(s: ServerSnapshot): ServerSnapshot {
  // Tools as the server sent them: a field mcp-smart could not read is written back as it came.
  const out: ServerSnapshot = {
    name: s.name,
    transport: s.transport,
    status: s.status,
    tools: s.tools.map(toolAsSent),
  };
  if (s.source !== undefined) out.source = s.source;
  if (s.error !== undefined) out.error = s.error;
  if (s.errorCode !== undefined) out.errorCode = s.errorCode;
  if (s.notes !== undefined && s.notes.length > 0) out.notes = s.notes;
  if (s.serverInfo !== undefined) out.serverInfo = s.serverInfo;
  if (s.protocolVersion !== undefined) out.protocolVersion = s.protocolVersion;
  if (s.instructions !== undefined) out.instructions = s.instructions;
  if (s.prompts !== undefined) out.prompts = s.prompts;
  if (s.resources !== undefined) out.resources = s.resources;
  if (s.resourceTemplates !== undefined) out.resourceTemplates = s.resourceTemplates;
  // Field order above is the public order; tools come last in the file for readability.
  const { tools, ...rest } = out;
  return { ...rest, tools };
}

const describeValue = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

/**
 * Validates a parsed snapshot document; throws SNAPSHOT_INVALID naming the file and the key path. `seen.problems`
 * counts the malformed tool entries found (they become notes).
 */
export function parseSnapshot(
  doc: unknown,
  file: string,
  validate: ValidateOptions = {},
  seen: { problems: number } = { problems: 0 },
): Snapshot {
  const fail = (reason: string, foreign = false): never => {
    throw new SmartError('SNAPSHOT_INVALID', { file, reason, ...(foreign ? { create: 'mcp-snapshot.json' } : {}) });
  };
  // A file that is no snapshot at all (a baseline, a package.json) is someone's: the advice names a new file for it.
  if (!isObject(doc)) return fail('the top level is not an object', true);
  if (doc.format !== SNAPSHOT_FORMAT)
    return fail(`"format" is ${JSON.stringify(doc.format)}, expected "${SNAPSHOT_FORMAT}"`, true);
  if (!Array.isArray(doc.servers)) return fail('"servers" is not an array');
  const servers = doc.servers.map((s: unknown, i: number) => checkServer(s, i, file, validate, seen));
  return { ...(doc as unknown as Snapshot), servers };
}

/** Validates servers[i] of a snapshot document (parseSnapshot); throws SNAPSHOT_INVALID as it does. */
export function checkServer(
  s: unknown,
  i: number,
  file: string,
  validate: ValidateOptions = {},
  seen: { problems: number } = { problems: 0 },
): ServerSnapshot {
  const fail = (reason: string): never => {
    throw new SmartError('SNAPSHOT_INVALID', { file, reason });
  };
  if (!isObject(s)) return fail(`servers[${i}] is not an object`);
  if (typeof s.name !== 'string' || s.name === '') fail(`servers[${i}].name is missing`);
  if (!Array.isArray(s.tools)) fail(`servers[${i}].tools is not an array`);
  if (s.status !== 'ok' && s.status !== 'error') fail(`servers[${i}].status must be "ok" or "error"`);
  if (s.transport !== 'stdio' && s.transport !== 'http' && s.transport !== 'sse')
    fail(`servers[${i}].transport must be stdio, http or sse`);
  // The same edge check as a live tools/list: well-formed tools are kept, the rest become a note.
  const checked = validateTools(s.tools as unknown[], validate);
  const notes = Array.isArray(s.notes) ? s.notes.filter((n): n is string => typeof n === 'string') : [];
  seen.problems += checked.problems.length;
  notes.push(...malformedToolsNotes(checked, `${file}: servers[${i}].tools`, 'holds', notes));
  const out = { ...s, tools: checked.tools } as unknown as ServerSnapshot;
  for (const key of ['instructions', 'error'] as const) {
    if (s[key] !== undefined && typeof s[key] !== 'string') {
      notes.push(`${file}: servers[${i}].${key} is ${describeValue(s[key])}, not a string; it was ignored`);
      delete out[key];
    }
  }
  for (const key of ['prompts', 'resources', 'resourceTemplates'] as const) {
    if (s[key] !== undefined && !Array.isArray(s[key])) {
      notes.push(`${file}: servers[${i}].${key} is not a list; it was ignored`);
      delete out[key];
    }
  }
  if (!isObject(s.serverInfo) && s.serverInfo !== undefined) delete out.serverInfo;
  if (notes.length > 0) out.notes = notes;
  else delete out.notes;
  return out;
}

/** Snapshot files read and merged, with a digest of their bytes (see readSnapshotSet). */
export interface SnapshotSet {
  servers: ServerSnapshot[];
  /**
   * SHA-256 (hex) of the files' bytes in the order given: everything `servers` is derived from, so a cache of
   * results computed from them can be keyed by it without walking the parsed tools again.
   */
  digest: string;
}

/**
 * Files whose bytes were checked before (a cache, by the SHA-256 of the bytes): `known` files hold only
 * well-formed tools, so their tools skip the depth walk of the edge check; `remember` records such a file.
 */
export interface CheckedSnapshots {
  known: (digest: string) => Promise<boolean>;
  remember: (digest: string) => Promise<void>;
  /** True when no file is recorded, so `known` is false for every digest (a file can be read before its digest). */
  none?: () => Promise<boolean>;
}

/** Reads snapshot files and merges them by server name (a later file's server replaces an earlier one's). */
export async function readSnapshotFiles(files: string[], cwd: string): Promise<ServerSnapshot[]> {
  return (await readSnapshotSet(files, cwd)).servers;
}

/**
 * readSnapshotFiles, with the digest of the files' bytes; `checked` skips re-checking files seen before. With `each`,
 * every server is passed through it as soon as it is checked (a command that needs less than the whole tool cuts it
 * down there): the file is then parsed one server at a time (snapshot-split.ts), so the whole document is never
 * alive as one string and one tree. The servers, notes and errors are those of the whole parse.
 */
export async function readSnapshotSet(
  files: string[],
  cwd: string,
  checked?: CheckedSnapshots,
  each?: (server: ServerSnapshot) => ServerSnapshot,
): Promise<SnapshotSet> {
  const byName = new Map<string, ServerSnapshot>();
  const hash = createHash('sha256');
  for (const f of files) {
    // Read in steps and cut as the bytes come, unless a record of checked files might skip the checks (it needs the
    // digest of the whole file first).
    const inSteps = each !== undefined && (checked === undefined || (await checked.none?.()) === true);
    let seen = { problems: 0 };
    const stepped = inSteps ? readByServer(f, cwd, seen, each) : undefined;
    let digest = stepped?.digest ?? '';
    let servers = stepped?.servers ?? [];
    let shallow = false;
    if (stepped === undefined) {
      const bytes = readFileBytes(f, cwd, READ_AS.snapshot);
      if (bytes === undefined)
        throw new SmartError('FILE_NOT_FOUND', { file: f, hint: 'Create a snapshot with: mcp-smart dump -o ' + f });
      digest = createHash('sha256').update(bytes).digest('hex');
      shallow = checked ? await checked.known(digest) : false;
      seen = { problems: 0 };
      const pieces = each ? parseByServer(bytes, f, { shallow }, seen, each) : undefined;
      if (pieces !== undefined) servers = pieces;
      else {
        seen = { problems: 0 };
        const text = stripBom(bytes.toString('utf8'));
        servers = parseSnapshot(parseJsonText(text, f), f, { shallow }, seen).servers;
        if (each) servers = servers.map(each);
      }
    }
    hash.update(`${digest}\0`);
    if (checked && !shallow && seen.problems === 0) await checked.remember(digest);
    for (const s of servers) {
      const earlier = byName.get(s.name);
      // A Map keyed by the name: `__proto__` is a name like any other. A duplicate is said, not silently dropped.
      byName.set(
        s.name,
        earlier
          ? {
              ...s,
              notes: [
                ...(s.notes ?? []),
                `${f}: a second server named "${s.name}" replaced an earlier one (${countOf(earlier.tools.length, 'tool')} → ${countOf(s.tools.length, 'tool')})`,
              ],
            }
          : s,
      );
    }
  }
  return { servers: [...byName.values()], digest: hash.digest('hex') };
}

/**
 * The servers of a snapshot file read in steps and cut as its bytes come (snapshot-cut.ts), each parsed, checked and
 * passed through `each` while its bytes are fresh in the cache, and the SHA-256 of the bytes; undefined when the
 * file cannot be read, is not cut cleanly or any piece fails (the whole read then reports it as it would).
 */
function readByServer(
  file: string,
  cwd: string,
  seen: { problems: number },
  each: (server: ServerSnapshot) => ServerSnapshot,
): { servers: ServerSnapshot[]; digest: string } | undefined {
  const hash = createHash('sha256');
  const servers: ServerSnapshot[] = [];
  const validate = { shallow: false };
  // The cut counts each server's nesting as it passes its bytes: a server no deeper than MAX_SCHEMA_DEPTH has no
  // tool deeper either, so its tools skip the depth walk (the same result, without a second pass over every schema).
  const cut = new ChunkedCut((bytes, from, to, depth) => {
    const checks = { shallow: depth <= MAX_SCHEMA_DEPTH };
    servers.push(each(checkServer(parseServerText(bytes, from, to), servers.length, file, checks, seen)));
  });
  try {
    const read = readFileChunks(
      file,
      cwd,
      READ_AS.snapshot,
      () => cut.room(),
      (bytes) => (hash.update(bytes), cut.add(bytes.byteLength)),
    );
    const head = read ? cut.end() : undefined;
    if (head === undefined) return undefined;
    parseSnapshot(JSON.parse(head), file, validate, seen);
    return { servers, digest: hash.digest('hex') };
  } catch (e) {
    // A file past the size limit, or a pipe nobody writes: read again whole, it would only go on (or wait) again.
    if (e instanceof SmartError && e.code === 'FILE_UNREADABLE') throw e;
    return undefined;
  }
}

/**
 * The servers of a snapshot file parsed one at a time, each checked (checkServer) and passed through `each`;
 * undefined when the file is not cut cleanly or any piece fails (the whole parse then reports it as it would).
 */
function parseByServer(
  bytes: Buffer,
  file: string,
  validate: ValidateOptions,
  seen: { problems: number },
  each: (server: ServerSnapshot) => ServerSnapshot,
): ServerSnapshot[] | undefined {
  const split = splitSnapshot(bytes);
  if (split === undefined) return undefined;
  try {
    parseSnapshot(JSON.parse(split.head), file, validate, seen);
    return split.servers.map(([from, to], i) =>
      each(checkServer(parseServerText(bytes, from, to), i, file, validate, seen)),
    );
  } catch {
    return undefined;
  }
}

/** What `dump` returns: the file written (with -o) and one line per server. */
export interface DumpResult {
  output?: string;
  servers: { name: string; status: 'ok' | 'error'; error?: string; toolCount: number; cached?: boolean }[];
}

/** The per-server summary of a dump; never the tools themselves. */
export function dumpSummary(servers: ServerSnapshot[]): DumpResult {
  return {
    servers: servers.map((s) => ({
      name: s.name,
      status: s.status,
      ...(s.error !== undefined ? { error: s.error } : {}),
      toolCount: s.tools.length,
      ...(s.cached ? { cached: true } : {}),
    })),
  };
}
