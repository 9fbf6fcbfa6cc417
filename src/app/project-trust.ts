/**
 * The edge of mcp-smart's own project gate: reads and writes the trust list (user data folder,
 * trusted-projects.json, written atomically), takes the flag and the environment, asks once on a terminal, and
 * holds back the project-file servers nobody approved. The decision itself is core/trust/project-gate.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { userDataDir } from '../core/paths.js';
import {
  holdUnapproved,
  isApprovedInList,
  isProjectFileServer,
  parseTrustList,
  projectDefinitionsHash,
  withApproval,
  type TrustList,
} from '../core/trust/project-gate.js';
import type { DefinitionResult } from '../core/config/index.js';
import type { Io } from '../io.js';
import { writeFileSafe } from '../safe-write.js';
import type { ServerDefinition } from '../types.js';
import type { SetupPaths } from './paths.js';

export const TRUST_ENV = 'MCP_SMART_TRUST_PROJECT';

export function trustListFile(paths: SetupPaths): string {
  return join(userDataDir(paths.pathEnv), 'trusted-projects.json');
}

async function readTrustList(file: string): Promise<TrustList | undefined> {
  try {
    return parseTrustList(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return undefined; // missing or unreadable: nothing is approved, the user is asked again
  }
}

/** Records the approval of the project's current server definitions in the trust list. */
export async function approveProject(
  paths: SetupPaths,
  project: string,
  defs: readonly ServerDefinition[],
): Promise<void> {
  const file = trustListFile(paths);
  const list = withApproval(await readTrustList(file), project, projectDefinitionsHash(defs), new Date());
  await writeFileSafe(file, `${JSON.stringify(list, null, 2)}\n`, { mode: 0o600 });
}

/** The project-file servers that need an approval: enabled, and not already approved in their client. */
export function unapprovedProjectServers(defs: readonly ServerDefinition[]): ServerDefinition[] {
  return defs.filter((d) => d.enabled && isProjectFileServer(d) && d.clientApproved !== true);
}

export interface GateOptions {
  trustProject?: boolean;
  /** False for commands that only list (servers): never prompt, just report. */
  ask?: boolean;
}

/**
 * Holds back (enabled false, pendingTrust) every project-file server not approved by its client, the trust list, the
 * flag/env or — on a terminal — the user's answer now (saved). Returns the held servers.
 */
export async function gateProjectServers(
  defs: DefinitionResult,
  io: Io,
  paths: SetupPaths,
  opts: GateOptions,
): Promise<ServerDefinition[]> {
  const candidates = unapprovedProjectServers(defs.servers);
  if (candidates.length === 0) return [];
  if (await projectApproved(defs, io, paths, opts, candidates)) return [];
  return holdUnapproved(defs.servers, false);
}

/**
 * Whether mcp-smart may start `candidates` (this project's own servers): --trust-project or the environment, the trust
 * list for the project's current definitions, or — on a terminal, unless `ask` is false — the user's answer now (saved).
 */
export async function projectApproved(
  defs: DefinitionResult,
  io: Io,
  paths: SetupPaths,
  opts: GateOptions,
  candidates: readonly ServerDefinition[],
): Promise<boolean> {
  if (opts.trustProject === true || io.env[TRUST_ENV] === '1') return true;
  const hash = projectDefinitionsHash(defs.servers);
  if (isApprovedInList(await readTrustList(trustListFile(paths)), io.cwd, hash)) return true;
  if (opts.ask !== false && io.confirm) {
    const names = candidates.map((d) => `${d.name} (${d.command ?? d.url ?? ''})`).join(', ');
    const yes = await io.confirm(
      `This project's config files define servers mcp-smart would start: ${names}. Start them now and remember this answer for ${io.cwd}?`,
    );
    if (yes) {
      await approveProject(paths, io.cwd, defs.servers);
      return true;
    }
  }
  return false;
}

/** Gates that only wait for an approval nobody gave yet (a server the user rejected or switched off is not one). */
const WAITING: ReadonlySet<string> = new Set(['claude-pending', 'gemini-folder-untrusted', 'codex-project-untrusted']);

/**
 * Project-file servers a client keeps from loading until it is approved (Claude Code's pending .mcp.json approval, an
 * untrusted Codex project or Gemini folder): mcp-smart's own approval cannot load them in that client, but commands
 * that name their file with --config read them (CI, where no client approved anything).
 */
export function clientHeldProjectServers(defs: readonly ServerDefinition[]): ServerDefinition[] {
  return defs.filter((d) => d.gate !== undefined && WAITING.has(d.gate) && isProjectFileServer(d));
}

/** One stderr line per held server, saying how to approve. */
export function printHeld(io: Io, held: readonly ServerDefinition[]): void {
  for (const d of held) {
    io.stderr(
      `note: ${d.name} (${d.source}) was not started: pending approval of this project's servers. Run \`mcp-smart trust\` here, or pass --trust-project (${TRUST_ENV}=1) to start it for this run.\n`,
    );
  }
}
