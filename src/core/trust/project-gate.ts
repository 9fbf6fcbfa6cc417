/**
 * mcp-smart's own project gate (issue 30): a server read from a project-level file — a file any cloned repository can
 * carry — is not started until the user approved it: in its client (client-trust.ts says so), in mcp-smart's trust
 * list (keyed by the project folder and a hash of the project's server definitions, so an edited file asks again),
 * by --trust-project / MCP_SMART_TRUST_PROJECT=1, or by naming the file with -c. Pure: the caller reads and writes
 * the trust list.
 */
import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isSecretName } from '../../process/redact.js';
import { shellQuote } from '../ci-workflow.js';
import { isPostgresUrl } from '../store/url.js';
import type { ServerDefinition } from '../types.js';

/** One approval in the trust list. */
export interface TrustRecord {
  project: string;
  hash: string;
  approvedAt: string;
}

export interface TrustList {
  version: 1;
  projects: TrustRecord[];
}

/** A server from a file inside the project (not ~/.claude.json's local scope, not -c, --stdio, --url or --demo). */
export function isProjectFileServer(d: ServerDefinition): boolean {
  return d.scope === 'project' && d.layer !== 'local';
}

/**
 * The settings of our own config file that reach outside the project (issue 41, class 1): a PostgreSQL store (a
 * connection made with the user's PGPASSWORD / ~/.pgpass) or a store file outside the project folder. A project file
 * that sets one needs the same approval as a server it defines.
 */
export interface ReachingSettings {
  store?: string;
}

export function reachingSettings(store: string | undefined, projectDir: string): ReachingSettings {
  if (store === undefined || store === '') return {};
  if (isPostgresUrl(store)) return { store };
  const rel = relative(projectDir, resolve(projectDir, store));
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? { store } : {};
}

/**
 * The env values that enter the approval: every value except those of variables named as credentials (…_TOKEN,
 * …_KEY, PASSWORD, …; a rotated token does not ask again). So NODE_OPTIONS, LD_PRELOAD, PYTHONPATH, PATH — anything
 * that can change what runs — is covered by value, whatever an envFile or the entry sets it to. Values only ever
 * enter the SHA-256 below; nothing stores them.
 */
const approvedEnv = (env: Readonly<Record<string, string>> | undefined): [string, string | null][] =>
  Object.keys(env ?? {})
    .sort()
    .map((k) => [k, isSecretName(k) ? null : env![k]!]);

/**
 * The hash the approval is keyed by: every project-file definition's launch-relevant fields (command, args, cwd, URL,
 * env values per approvedEnv, header names), in a stable order, and the settings that reach outside the project.
 */
export function projectDefinitionsHash(
  defs: readonly ServerDefinition[],
  settings: ReachingSettings = {},
  include: (d: ServerDefinition) => boolean = isProjectFileServer,
): string {
  const parts = defs
    .filter(include)
    .map((d) => ({
      name: d.name,
      source: d.source,
      transport: d.transport,
      command: d.command ?? null,
      args: d.args ?? [],
      cwd: d.cwd ?? null,
      url: d.url ?? null,
      env: approvedEnv(d.env),
      headers: Object.keys(d.headers ?? {}).sort(),
    }))
    .sort((a, b) => (a.source + a.name < b.source + b.name ? -1 : a.source + a.name > b.source + b.name ? 1 : 0));
  const doc = settings.store === undefined ? parts : { servers: parts, store: settings.store };
  return createHash('sha256').update(JSON.stringify(doc)).digest('hex');
}

export function isApprovedInList(list: TrustList | undefined, project: string, hash: string): boolean {
  return list?.projects.some((r) => r.project === project && r.hash === hash) === true;
}

/** The list with this project's approval replaced by one for `hash`. */
export function withApproval(list: TrustList | undefined, project: string, hash: string, now: Date): TrustList {
  const others = (list?.projects ?? []).filter((r) => r.project !== project);
  return { version: 1, projects: [...others, { project, hash, approvedAt: now.toISOString() }] };
}

/** A parsed trust-list file, or undefined when it is not one (then nothing counts as approved). */
export function parseTrustList(doc: unknown): TrustList | undefined {
  if (typeof doc !== 'object' || doc === null || !Array.isArray((doc as TrustList).projects)) return undefined;
  const projects = (doc as TrustList).projects.filter(
    (r): r is TrustRecord =>
      typeof r === 'object' && r !== null && typeof r.project === 'string' && typeof r.hash === 'string',
  );
  return { version: 1, projects };
}

export const PENDING_NOTE =
  'pending approval in mcp-smart: it comes from a project file and was not started. Approve it with `mcp-smart trust` (or --trust-project / MCP_SMART_TRUST_PROJECT=1 in CI).';

/**
 * Marks the project-file servers nobody approved as not started (enabled false, `pendingTrust`), and returns them.
 * `approved` is the outcome of the flag, the trust list or the prompt for this project's current hash.
 */
export function holdUnapproved(defs: readonly ServerDefinition[], approved: boolean): ServerDefinition[] {
  if (approved) return [];
  const held: ServerDefinition[] = [];
  for (const d of defs) {
    if (!d.enabled || !isProjectFileServer(d) || d.clientApproved === true) continue;
    d.enabled = false;
    d.pendingTrust = true;
    d.notLoaded = PENDING_NOTE;
    held.push(d);
  }
  return held;
}

/**
 * What approves held servers: `mcp-smart trust` for the project's own files, `mcp-smart trust -c <file> …` for
 * --config files that changed since they were approved (plain `trust` approves the project, not those).
 */
export function trustCommands(held: readonly Pick<ServerDefinition, 'scope' | 'source'>[]): string[] {
  const files = [...new Set(held.filter((d) => d.scope === 'explicit').map((d) => d.source))];
  return [
    ...(held.some((d) => d.scope !== 'explicit') ? ['mcp-smart trust'] : []),
    ...(files.length > 0 ? [['mcp-smart trust', ...files.map((f) => `-c ${shellQuote(f)}`)].join(' ')] : []),
  ];
}
