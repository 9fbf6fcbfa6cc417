/** Snapshot files: build one from ServerSnapshots, and read, validate and merge saved ones. */
import { SmartError } from '../errors.js';
import { readJsonFile } from '../read-file.js';
import { SNAPSHOT_FORMAT, type ServerSnapshot, type Snapshot } from '../types.js';

/** The snapshot document. Drops in-memory-only fields (stderr, timings, cache flag). */
export function buildSnapshot(servers: ServerSnapshot[], createdAt: string): Snapshot {
  return {
    format: SNAPSHOT_FORMAT,
    createdAt,
    servers: servers.map(toPersistedServer),
  };
}

function toPersistedServer(s: ServerSnapshot): ServerSnapshot {
  const out: ServerSnapshot = { name: s.name, transport: s.transport, status: s.status, tools: s.tools };
  if (s.source !== undefined) out.source = s.source;
  if (s.error !== undefined) out.error = s.error;
  if (s.errorCode !== undefined) out.errorCode = s.errorCode;
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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates a parsed snapshot document; throws SNAPSHOT_INVALID naming the file and the key path. */
export function parseSnapshot(doc: unknown, file: string): Snapshot {
  const fail = (reason: string): never => {
    throw new SmartError('SNAPSHOT_INVALID', { file, reason });
  };
  if (!isObject(doc)) return fail('the top level is not an object');
  if (doc.format !== SNAPSHOT_FORMAT)
    return fail(`"format" is ${JSON.stringify(doc.format)}, expected "${SNAPSHOT_FORMAT}"`);
  if (!Array.isArray(doc.servers)) return fail('"servers" is not an array');
  doc.servers.forEach((s: unknown, i: number) => {
    if (!isObject(s)) return fail(`servers[${i}] is not an object`);
    if (typeof s.name !== 'string' || s.name === '') fail(`servers[${i}].name is missing`);
    if (!Array.isArray(s.tools)) fail(`servers[${i}].tools is not an array`);
    (s.tools as unknown[]).forEach((t, j) => {
      if (!isObject(t) || typeof t.name !== 'string') fail(`servers[${i}].tools[${j}].name is missing`);
    });
    if (s.status !== 'ok' && s.status !== 'error') fail(`servers[${i}].status must be "ok" or "error"`);
    if (s.transport !== 'stdio' && s.transport !== 'http' && s.transport !== 'sse')
      fail(`servers[${i}].transport must be stdio, http or sse`);
    return undefined;
  });
  return doc as unknown as Snapshot;
}

/** Reads snapshot files and merges them by server name (a later file's server replaces an earlier one's). */
export async function readSnapshotFiles(files: string[], cwd: string): Promise<ServerSnapshot[]> {
  const byName = new Map<string, ServerSnapshot>();
  for (const f of files) {
    const doc = await readJsonFile(f, cwd);
    if (doc === undefined)
      throw new SmartError('FILE_NOT_FOUND', { file: f, hint: 'Create a snapshot with: mcp-smart dump -o ' + f });
    for (const s of parseSnapshot(doc, f).servers) byName.set(s.name, s);
  }
  return [...byName.values()];
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
