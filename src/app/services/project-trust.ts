/**
 * The edge of mcp-smart's own project gate: reads and writes the trust list (user data folder,
 * trusted-projects.json, written atomically), takes the flag and the environment, asks once on a terminal, and
 * holds back the project-file servers nobody approved. The decision itself is core/trust/project-gate.ts.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { userDataDir } from '../../core/paths.js';
import { storeLabel } from '../../core/store/url.js';
import {
  holdUnapproved,
  isApprovedInList,
  isProjectFileServer,
  parseTrustList,
  projectDefinitionsHash,
  reachingSettings,
  withApproval,
  type ReachingSettings,
  type TrustList,
} from '../../core/trust/project-gate.js';
import type { DefinitionResult } from '../../core/config/index.js';
import type { Io } from '../../process/io.js';
import { writeFileSafe } from '../../process/safe-write.js';
import { READ_AS, readTextFile } from '../../process/read-file.js';
import { SmartError } from '../../process/errors.js';
import { envSwitch } from '../../process/env-values.js';
import type { ServerDefinition } from '../../core/types.js';
import type { SetupPaths } from './paths.js';

export const TRUST_ENV = 'MCP_SMART_TRUST_PROJECT';

/** MCP_SMART_TRUST_PROJECT=1 (or true, yes, on): as --trust-project; a value it does not take is exit 2. */
const trustedByEnv = (io: Pick<Io, 'env'>): boolean =>
  envSwitch(io.env, TRUST_ENV, "to start this project's servers without a recorded approval (CI)") === true;

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

/**
 * The trust list to add an approval to: none when missing. A list that cannot be read or is not one (truncated, bytes
 * that are not text, a folder) is FILE_PARSE / FILE_UNREADABLE, left as it is: rewriting it dropped every approval.
 */
async function trustListToUpdate(file: string): Promise<TrustList | undefined> {
  const text = await readTextFile(file, '/', READ_AS.config);
  if (text === undefined) return undefined;
  const fix = 'fix it, or delete it (every project it approved is then asked about again), and run trust again';
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new SmartError('FILE_PARSE', { file, kind: 'JSON', reason: `${(e as Error).message}; ${fix}` }, { cause: e });
  }
  const list = parseTrustList(doc);
  if (!list)
    throw new SmartError('FILE_PARSE', {
      file,
      kind: 'an mcp-smart trust list',
      reason: `it has no "projects" list; ${fix}`,
    });
  return list;
}

/** Records an approval (the project folder's, or a --config file's) in the trust list. */
async function recordApproval(paths: SetupPaths, key: string, hash: string): Promise<void> {
  const file = trustListFile(paths);
  const list = withApproval(await trustListToUpdate(file), key, hash, new Date());
  await writeFileSafe(file, `${JSON.stringify(list, null, 2)}\n`, { mode: 0o600 });
}

/** Records the approval of the project's current server definitions and reaching settings in the trust list. */
export async function approveProject(
  paths: SetupPaths,
  project: string,
  defs: readonly ServerDefinition[],
  settings: ReachingSettings = {},
): Promise<void> {
  await recordApproval(paths, project, projectDefinitionsHash(defs, settings));
}

/** The project-file servers that need an approval: enabled, and not already approved in their client. */
export function unapprovedProjectServers(defs: readonly ServerDefinition[]): ServerDefinition[] {
  return defs.filter((d) => d.enabled && isProjectFileServer(d) && d.clientApproved !== true);
}

export interface GateOptions {
  trustProject?: boolean;
  /** False for commands that only list (servers): never prompt, just report. */
  ask?: boolean;
  /** The --config files of the run (as given). */
  configFiles?: readonly string[];
}

/** The settings of the project's own config (not a --config file's) that reach outside the project. */
export function projectSettings(defs: DefinitionResult, cwd: string, configFiles: readonly string[]): ReachingSettings {
  if (defs.configFile === undefined) return {};
  const file = resolve(cwd, defs.configFile);
  if (configFiles.some((f) => resolve(cwd, f) === file)) return {};
  return reachingSettings(defs.config.store, cwd);
}

/** What the gate held back: servers, and settings of our own config that were dropped for this run. */
export interface Held {
  servers: ServerDefinition[];
  /** `store` entries dropped: where they came from and the store as shown (credentials redacted). */
  settings: { file: string; store: string; key: string }[];
}

/** The key a --config file's approval is kept under in the trust list. */
const configKey = (file: string): string => `--config ${file}`;

/**
 * Holds back (enabled false, pendingTrust) every project-file server not approved by its client, the trust list, the
 * flag/env or — on a terminal — the user's answer now (saved), and drops a `store` of the project's config that
 * reaches outside it unless approved the same way. A --config file counts as approved as it was first named (its
 * hash is recorded then, and by `trust -c`); once it changes it is held back the same way until approved again.
 */
export async function gateProjectServers(
  defs: DefinitionResult,
  io: Io,
  paths: SetupPaths,
  opts: GateOptions,
): Promise<Held> {
  const held: Held = { servers: [], settings: [] };
  if (opts.trustProject === true || trustedByEnv(io)) return held;
  const configFiles = opts.configFiles ?? [];
  const list = await readTrustList(trustListFile(paths));
  const dropStore = (file: string, key: string): void => {
    held.settings.push({ file, store: storeLabel(defs.config.store!), key });
    delete defs.config.store;
  };

  // The project folder's own files.
  const candidates = unapprovedProjectServers(defs.servers);
  const settings = projectSettings(defs, io.cwd, configFiles);
  if (candidates.length > 0 || settings.store !== undefined) {
    const hash = projectDefinitionsHash(defs.servers, settings);
    let approved = isApprovedInList(list, io.cwd, hash);
    if (!approved && opts.ask !== false && io.confirm) {
      const what = [
        ...candidates.map((d) => `${d.name} (${d.command ?? d.url ?? ''})`),
        ...(settings.store !== undefined ? [`the usage store ${storeLabel(settings.store)}`] : []),
      ].join(', ');
      approved = await io.confirm(
        `This project's config files name what mcp-smart would start or connect to: ${what}. Allow it now and remember this answer for ${io.cwd}?`,
      );
      if (approved) await approveProject(paths, io.cwd, defs.servers, settings);
    }
    if (!approved) {
      held.servers.push(...holdUnapproved(defs.servers, false));
      if (settings.store !== undefined) dropStore(resolve(io.cwd, defs.configFile!), 'store');
    }
  }

  // Each --config file: approved as first named, asked again once it changed.
  for (const file of [...new Set(configFiles.map((f) => resolve(io.cwd, f)))]) {
    const mine = (d: ServerDefinition): boolean => d.scope === 'explicit' && resolve(io.cwd, d.source) === file;
    const own = defs.configFile !== undefined && resolve(io.cwd, defs.configFile) === file;
    const fileSettings = own ? reachingSettings(defs.config.store, dirname(file)) : {};
    if (!defs.servers.some((d) => d.enabled && mine(d)) && fileSettings.store === undefined) continue;
    const hash = projectDefinitionsHash(defs.servers, fileSettings, mine);
    const record = list?.projects.find((r) => r.project === configKey(file));
    if (record === undefined) {
      await recordApproval(paths, configKey(file), hash);
      continue;
    }
    if (record.hash === hash) continue;
    if (opts.ask !== false && io.confirm) {
      const yes = await io.confirm(`${file} changed since it was approved. Start what it now names and remember this?`);
      if (yes) {
        await recordApproval(paths, configKey(file), hash);
        continue;
      }
    }
    for (const d of defs.servers) {
      if (!d.enabled || !mine(d)) continue;
      d.enabled = false;
      d.pendingTrust = true;
      d.notLoaded = `${CHANGED_NOTE} Approve it with \`mcp-smart trust -c ${file}\`.`;
      held.servers.push(d);
    }
    if (fileSettings.store !== undefined) dropStore(file, 'store');
  }
  return held;
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
  if (opts.trustProject === true || trustedByEnv(io)) return true;
  const settings = projectSettings(defs, io.cwd, []);
  const hash = projectDefinitionsHash(defs.servers, settings);
  if (isApprovedInList(await readTrustList(trustListFile(paths)), io.cwd, hash)) return true;
  if (opts.ask !== false && io.confirm) {
    const names = candidates.map((d) => `${d.name} (${d.command ?? d.url ?? ''})`).join(', ');
    const yes = await io.confirm(
      `This project's config files define servers mcp-smart would start: ${names}. Start them now and remember this answer for ${io.cwd}?`,
    );
    if (yes) {
      await approveProject(paths, io.cwd, defs.servers, settings);
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

/** Approves the --config files as they are now (`trust -c`). */
export async function approveConfigFiles(
  paths: SetupPaths,
  defs: DefinitionResult,
  cwd: string,
  files: readonly string[],
): Promise<void> {
  for (const file of [...new Set(files.map((f) => resolve(cwd, f)))]) {
    const mine = (d: ServerDefinition): boolean => d.scope === 'explicit' && resolve(cwd, d.source) === file;
    const own = defs.configFile !== undefined && resolve(cwd, defs.configFile) === file;
    const settings = own ? reachingSettings(defs.config.store, dirname(file)) : {};
    await recordApproval(paths, configKey(file), projectDefinitionsHash(defs.servers, settings, mine));
  }
}

const CHANGED_NOTE =
  'pending approval in mcp-smart: its --config file changed since it was approved, so it was not started.';

/** One stderr line per held server or dropped setting, saying how to approve. */
export function printHeld(io: Io, held: Held): void {
  for (const s of held.settings)
    io.stderr(
      `note: the usage store ${s.store} set in ${s.file} was not used: it reaches outside the project and is pending approval. Run \`mcp-smart trust\` here (\`trust -c <file>\` for a --config file), or pass --store. Learning goes to the default store meanwhile.\n`,
    );
  for (const d of held.servers) {
    if (d.scope === 'explicit') {
      io.stderr(`note: ${d.name} (${d.source}) was not started: ${d.notLoaded ?? ''}\n`);
      continue;
    }
    io.stderr(
      `note: ${d.name} (${d.source}) was not started: pending approval of this project's servers. Run \`mcp-smart trust\` here, or pass --trust-project (${TRUST_ENV}=1) to start it for this run.\n`,
    );
  }
}
