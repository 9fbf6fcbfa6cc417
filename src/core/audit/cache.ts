/**
 * The audit cache: per server (its name, instructions and tools exactly as listed), the figures at every level and
 * the tool-level findings of an earlier audit, so a warm re-audit neither condenses, renders nor hashes each tool
 * text again. Keyed also by the encoding, the rendering and a fingerprint of the condensing and finding rules, so a
 * changed rule misses the cache instead of answering with old figures. The IO edge of audit/ (like count-cache).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileSafe } from '../../process/safe-write.js';
import { VERSION } from '../../process/version.js';
import { condenseToolLevels, metaTools } from '../condense/index.js';
import { renderTool, type RenderStyle } from '../tokens/index.js';
import type { Encoding, ServerSnapshot, ToolSnapshot } from '../types.js';
import { AUDIT_LIMITS, FINDING_SEVERITY, serverToolFindings } from './findings.js';
import type { KnownServer } from './index.js';

const FORMAT = 'mcp-smart/audit-servers@1';
/** Keeps the file bounded; the oldest entries go first. */
const MAX_ENTRIES = 2_000;

/** A tool that exercises what condensing does (prose, deprecation notice, nested schema, enums, $ref). */
const PROBE: ToolSnapshot = {
  name: 'probe_tool',
  description:
    'Reads the record. Returns JSON with every field, for example {"id": 1}. DEPRECATED: use read_v2 instead. ' +
    'This paragraph explains far more than a model needs to pick the tool, and condensing shortens it.',
  inputSchema: {
    type: 'object',
    $defs: { id: { type: 'string', description: 'An id.' } },
    properties: {
      id: { $ref: '#/$defs/id' },
      mode: { type: 'string', enum: ['a', 'b', 'c'], default: 'a', description: 'The mode, one of a, b or c.' },
      filter: {
        type: 'object',
        properties: { q: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    },
    required: ['id'],
  },
};

/** What the rules produce today: a changed condenser, renderer, meta-tool set or limit changes this string. */
function rulesFingerprint(style: RenderStyle): string {
  const levels = condenseToolLevels(PROBE);
  return JSON.stringify([
    VERSION,
    Object.values(levels).map((t) => renderTool(t, style)),
    metaTools().map((t) => renderTool(t, style)),
    String(AUDIT_LIMITS.toolNamePattern),
    { ...AUDIT_LIMITS, toolNamePattern: undefined },
    FINDING_SEVERITY,
    // The rules' own output on the probe (listed twice): a new or changed rule is a new cache, whatever the version.
    serverToolFindings(
      { name: 'probe', transport: 'stdio', status: 'ok', tools: [PROBE, PROBE] },
      { descriptionTokens: (t) => t.description?.length ?? 0 },
    ),
  ]);
}

export interface AuditCache {
  get(server: ServerSnapshot): KnownServer | undefined;
  set(server: ServerSnapshot, entry: KnownServer): void;
  meta: number | undefined;
  setMeta(tokens: number): void;
  /** Writes the file when anything was added. */
  flush(): Promise<void>;
}

export function auditCacheFile(cacheDir: string, encoding: Encoding, style: RenderStyle): string {
  return join(cacheDir, 'audit', `${encoding}-${style}.json`);
}

/** Opens the cache for one encoding and rendering; a missing, corrupt or stale file is an empty cache. */
export async function openAuditCache(cacheDir: string, encoding: Encoding, style: RenderStyle): Promise<AuditCache> {
  const file = auditCacheFile(cacheDir, encoding, style);
  const rules = createHash('sha256').update(rulesFingerprint(style)).digest('base64url');
  const entries = new Map<string, KnownServer>();
  let meta: number | undefined;
  try {
    const doc = JSON.parse(await readFile(file, 'utf8')) as {
      format?: unknown;
      rules?: unknown;
      meta?: unknown;
      servers?: unknown;
    };
    if (doc.format === FORMAT && doc.rules === rules && doc.servers && typeof doc.servers === 'object') {
      for (const [k, v] of Object.entries(doc.servers as Record<string, KnownServer>)) {
        if (v && typeof v === 'object' && v.server && Array.isArray(v.findings)) entries.set(k, v);
      }
      if (typeof doc.meta === 'number') meta = doc.meta;
    }
  } catch {
    // Missing, corrupt or unreadable: start empty; it is only a cache.
  }
  const keys = new WeakMap<ServerSnapshot, string>();
  const keyOf = (s: ServerSnapshot): string => {
    let k = keys.get(s);
    if (k === undefined) {
      const material = JSON.stringify([s.name, s.instructions ?? '', s.tools]);
      k = createHash('sha256').update(material).digest('base64url');
      keys.set(s, k);
    }
    return k;
  };
  let dirty = false;
  return {
    get: (s) => entries.get(keyOf(s)),
    set: (s, entry) => {
      const k = keyOf(s);
      entries.delete(k);
      entries.set(k, entry);
      dirty = true;
    },
    get meta() {
      return meta;
    },
    setMeta: (tokens) => {
      if (meta === tokens) return;
      meta = tokens;
      dirty = true;
    },
    flush: async () => {
      if (!dirty) return;
      const all = [...entries.keys()];
      for (const k of all.slice(0, Math.max(0, all.length - MAX_ENTRIES))) entries.delete(k);
      // A cache that cannot be written (read-only or misplaced folder) must not fail the run.
      await writeFileSafe(
        file,
        JSON.stringify({ format: FORMAT, rules, meta, servers: Object.fromEntries(entries) }),
      ).catch(() => undefined);
      dirty = false;
    },
  };
}
