/**
 * The `adopt <client>` use case: the servers that client loads (its scopes, its precedence, its filters) written to
 * mcp-smart.config.json with env/header values as `${VAR}` references, the client's switch to `serve`, and the way
 * back. The client's own files are read, never written.
 */
import { join } from 'node:path';
import { adoptEntries, writtenVariables, type AdoptVariable } from '../core/adopt.js';
import { GATE_LABEL } from '../core/config/client-trust.js';
import { clientLabel } from '../core/config/clients.js';
import type { DefinitionResult } from '../core/config/index.js';
import { SMART_CONFIG_NAME } from '../core/config/locate.js';
import { parseConfigText } from '../core/config/parse.js';
import { isPlainObject } from '../core/config/key-path.js';
import { SmartError } from '../errors.js';
import { readTextFile } from '../read-file.js';
import { writeFileSafe } from '../safe-write.js';
import { launchThis } from '../serve/launcher.js';
import {
  clientCommands,
  clientMode,
  withholdsEnv,
  printConfig,
  removeCommand,
  type ClientName,
} from '../serve/print-config.js';
import { isSelfServe } from '../serve/setup.js';
import type { ClientId, ServerDefinition, Transport } from '../types.js';
import type { AppContext } from './context.js';
import { loadDefinitions } from './definitions.js';

export interface AdoptOptions {
  client: ClientId;
  force: boolean;
  dryRun: boolean;
}

export interface AdoptResult {
  client: ClientId;
  file: string;
  /** `written`, `unchanged` (the file already says this), or `dry-run` (nothing written). */
  action: 'written' | 'unchanged' | 'dry-run';
  servers: { name: string; transport: Transport; source: string; includeTools?: string[]; excludeTools?: string[] }[];
  skipped: { name: string; source: string; reason: string }[];
  variables: AdoptVariable[];
  /** What makes the client start serve (print-config's snippet and add command). */
  switchText: string;
  /** How to undo the switch. */
  back: string;
  /** CLI clients: the switch and the way back as argv arrays (the client's own add and remove commands). */
  commands?: { switch: string[]; back: string[] };
  /**
   * The variables the written file refers to, for clients that do not pass their whole environment on to serve
   * (the switch text says what to do): Codex, when its mcp-smart entry lists them in `env_vars` (`codex mcp add` has
   * no flag for it); Gemini CLI, which withholds secret-like ones, when each is given as `-e NAME=<value>` after
   * `gemini mcp add` (the printed line has `-e "NAME=$NAME"`, which the shell fills in). Absent when none.
   */
  envVars?: string[];
  /** The document written (or that would be). */
  text: string;
}

/**
 * Why the client does not load this definition, or undefined when it does: the one place adopt asks it. A client
 * trust gate (client-trust.ts) is said in the client's words; a server only waiting for mcp-smart's own project
 * approval is loaded by the client, so it is adopted (serve then runs it from the file the user names with -c).
 */
function loadedByClient(def: ServerDefinition): string | undefined {
  if (isSelfServe(def)) return 'it is mcp-smart serve itself (already switched)';
  if (def.gate !== undefined) return GATE_LABEL[def.gate];
  if (!def.enabled && def.pendingTrust !== true) return def.notLoaded ?? 'disabled in the client';
  return undefined;
}

/** print-config's names: `gemini` is `gemini-cli` there. */
const printName = (client: ClientId): ClientName => (client === 'gemini' ? 'gemini-cli' : client);

function wayBack(client: ClientId, sources: string[]): string {
  const label = clientLabel(client);
  const remove =
    removeCommand(printName(client), 'mcp-smart') ?? `delete the "mcp-smart" entry you added to ${label}'s config`;
  return [
    `To go back: ${remove}.`,
    `Your own entries in ${sources.join(', ')} were not touched: mcp-smart never edits ${label}'s files, so ${label} loads them again as before.`,
  ].join('\n');
}

async function existingDoc(file: string): Promise<{ text?: string; doc: Record<string, unknown> }> {
  const text = await readTextFile(file, '/');
  if (text === undefined) return { doc: {} };
  const doc = parseConfigText(file, text);
  if (!isPlainObject(doc))
    throw new SmartError('CONFIG_INVALID', { file, key: '(top level)', reason: 'expected an object.' });
  return { text, doc };
}

/** Reads what the client loads and writes (or, with dryRun, shows) mcp-smart.config.json. */
export async function adoptClient(ctx: AppContext, opts: AdoptOptions): Promise<AdoptResult> {
  const { io, global } = ctx;
  const defs: DefinitionResult = await loadDefinitions({ ...global, adhoc: [], demo: false, client: opts.client }, io);
  const adopted: ServerDefinition[] = [];
  const skipped: AdoptResult['skipped'] = [];
  for (const def of defs.servers) {
    if (global.server.length > 0 && !global.server.includes(def.name)) continue;
    const reason = loadedByClient(def);
    if (reason === undefined && defs.rawEntryOf(def)) adopted.push(def);
    else skipped.push({ name: def.name, source: def.source, reason: reason ?? 'no entry to copy' });
  }
  if (adopted.length === 0) throw new SmartError('ADOPT_NOTHING', { client: clientLabel(opts.client) });
  const { servers, variables } = adoptEntries(adopted.map((def) => ({ def, raw: defs.rawEntryOf(def)! })));

  const file = join(io.cwd, SMART_CONFIG_NAME);
  const existing = await existingDoc(file);
  // Our other keys (budget, serve, …) stay; the server map is the client's.
  const rest = Object.fromEntries(
    Object.entries(existing.doc).filter(([k]) => k !== 'mcpServers' && k !== 'servers' && k !== '$schema'),
  );
  const schema = existing.doc.$schema !== undefined ? { $schema: existing.doc.$schema } : {};
  const text = `${JSON.stringify({ ...schema, mcpServers: servers, ...rest }, null, 2)}\n`;
  let action: AdoptResult['action'] = opts.dryRun ? 'dry-run' : 'written';
  if (existing.text === text) action = 'unchanged';
  else if (existing.text !== undefined && !opts.force && !opts.dryRun)
    throw new SmartError('ADOPT_EXISTS', { file, client: clientLabel(opts.client) });
  if (action === 'written') await writeFileSafe(file, text);

  const sources = [...new Set(adopted.map((d) => d.source))];
  return {
    client: opts.client,
    file,
    action,
    servers: adopted
      .map((d) => ({
        name: d.name,
        transport: d.transport,
        source: d.source,
        ...(d.toolFilter?.include ? { includeTools: d.toolFilter.include } : {}),
        ...(d.toolFilter?.exclude ? { excludeTools: d.toolFilter.exclude } : {}),
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    skipped,
    variables,
    ...switchFor(printName(opts.client), file, writtenVariables(servers)),
    back: wayBack(opts.client, sources),
    text,
  };
}

/** The client's switch to serve on the written file: this mcp-smart, started with `--config <file>`. */
function switchFor(
  client: ClientName,
  file: string,
  referenced: string[],
): Pick<AdoptResult, 'switchText' | 'commands' | 'envVars'> {
  const mode = clientMode(client);
  const launch = launchThis(['--config', file, 'serve', '--mode', mode]);
  const commands = clientCommands(client, 'mcp-smart', launch);
  const envVars = withholdsEnv(client) && referenced.length > 0 ? referenced : undefined;
  return {
    switchText: printConfig({ client, name: 'mcp-smart', launch, mode, modeAsked: false, envVars }),
    ...(commands && { commands }),
    ...(envVars && { envVars }),
  };
}
