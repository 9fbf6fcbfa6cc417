/**
 * The `adopt <client>` use case: the servers that client loads (its scopes, its precedence, its filters) written to
 * mcp-smart.config.json (plain values as written, secrets as `${VAR}` references), the client's switch to `serve`
 * that turns those servers off in the client, and the way back. The client's own files are changed only with
 * `--apply` (adopt-switch.ts: a copy kept, `--undo` puts them back).
 */
import { join } from 'node:path';
import { adoptEntries, writtenVariables, type AdoptVariable } from '../../core/adopt/config-entries.js';
import { GATE_LABEL } from '../../core/config/client-trust.js';
import { clientLabel } from '../../core/config/clients.js';
import type { DefinitionResult } from '../../core/config/index.js';
import { SMART_CONFIG_NAME } from '../../core/config/locate.js';
import { parseConfigText } from '../../core/config/parse.js';
import { isPlainObject } from '../../core/config/key-path.js';
import { SmartError } from '../../process/errors.js';
import { keepPlainValues, scrubMessage } from '../../process/secrets.js';
import { launchThis } from '../services/launcher.js';
import { applySwitch, readState, switchWriteRefusal } from './adopt-switch.js';
import { losingWarning, namesIn, servedNames, switchedOff, switchesLosing } from './adopt-others.js';
import { readOwnFile, writeOwnFile } from './adopt-write.js';
import { adoptLine, switchOf, type SwitchOutline } from './adopt-plan.js';
import { adoptMode } from './adopt-mode.js';
import { checkScopeClient, readAdoptScope, type AdoptScope } from './adopt-scope.js';
import { switchEntryName } from '../../core/adopt/switch-plan.js';
import { editConfigText, type SwitchEdit } from '../../core/adopt/switch-edit.js';
import {
  clientCommands,
  withholdsEnv,
  printConfig,
  printName,
  removeCommand,
  shellQuote,
  type ClientName,
} from '../services/print-config.js';
import type { Launch } from '../services/launcher.js';
import type { ServeMode } from '../../core/types.js';
import { isSelfServe } from '../services/launcher.js';
import type { ClientId, ServerDefinition, Transport } from '../../core/types.js';
import type { AppContext } from '../services/context.js';
import { loadDefinitions } from '../services/definitions.js';

export interface AdoptOptions {
  client: ClientId;
  force: boolean;
  dryRun: boolean;
  /** Change the client's files: turn the adopted servers off there and add mcp-smart (a copy is kept). */
  apply?: boolean;
  /** Write this project's scope derived from use as the client's own tool filter on the added entry. */
  scopeFromUse?: boolean;
  /** The usage store to read the scope from (else the config's `store`, else the default file). */
  store?: string;
}

export interface AdoptResult {
  client: ClientId;
  file: string;
  /**
   * `written`, `unchanged` (the file already says this), `dry-run` (nothing written), `switched` (the client already
   * runs mcp-smart instead of these servers: nothing to do), `changed` (switched, and the client has servers it did
   * not have then: nothing written, see `changedSince`).
   */
  action: 'written' | 'unchanged' | 'dry-run' | 'switched' | 'changed';
  /** With --force over a different file: where the replaced file was copied. */
  backup?: string;
  /** The switch in the client's own files: what it changes there, whether it was applied, and the commands. */
  clientSwitch?: SwitchOutline;
  /** After a switch: the servers the client loads now that it did not at the switch. */
  changedSince?: string[];
  /** After a switch: the servers it turned off in the client that mcp-smart.config.json no longer holds. */
  notServed?: string[];
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
  /** --scope-from-use: the filter written on the added entry (serve then runs in --mode tools). */
  scope?: AdoptScope;
  /** The document written (or that would be). */
  text: string;
}

/**
 * Why the client does not load this definition, or undefined when it does: the one place adopt asks it. A client
 * trust gate (client-trust.ts) is said in the client's words; a server only waiting for mcp-smart's own project
 * approval is loaded by the client, so it is adopted (serve then runs it from the file the user names with -c).
 */
const SELF_SERVE = 'it is mcp-smart serve itself (already switched)';

function loadedByClient(def: ServerDefinition): string | undefined {
  if (isSelfServe(def)) return SELF_SERVE;
  if (def.gate !== undefined) return GATE_LABEL[def.gate];
  if (!def.enabled && def.pendingTrust !== true) return def.notLoaded ?? 'disabled in the client';
  return undefined;
}

const SCOPE_WHY =
  "--scope-from-use: the client's own tool filter shows only this project's tools, each served first-class";

function wayBack(client: ClientId, entry: string, sources: string[], backup: string | undefined): string {
  const label = clientLabel(client);
  const remove =
    removeCommand(printName(client), entry) ?? `delete the "${entry}" entry you added to ${label}'s config`;
  return [
    `To go back after --apply: ${adoptLine(client, '--undo')}`,
    `  (puts back each file --apply changed, byte for byte; a change made since, by you or ${label}, is kept and named).`,
    `After the switch by hand: ${remove}, and turn your servers in ${sources.join(', ')} back on.`,
    ...(backup
      ? [
          `Your previous ${SMART_CONFIG_NAME} was copied to ${backup}; to restore it: mv ${shellQuote(backup)} ${SMART_CONFIG_NAME}`,
        ]
      : []),
  ].join('\n');
}

async function existingDoc(file: string): Promise<{ bytes?: Buffer; text?: string; doc: Record<string, unknown> }> {
  const bytes = await readOwnFile(file);
  if (bytes === undefined) return { doc: {} };
  const text = bytes.toString('utf8');
  const doc = parseConfigText(file, text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (!isPlainObject(doc))
    throw new SmartError('CONFIG_INVALID', { file, key: '(top level)', reason: 'expected an object.' });
  return { bytes, text, doc };
}

/**
 * The existing config with its server map replaced in place (jsonc-parser: comments, order, indentation kept), under
 * the key it already uses (`servers` or `mcpServers`); a second map of the other name is removed, as before.
 */
function editedInPlace(text: string, doc: Record<string, unknown>, servers: unknown): string {
  const key = Object.hasOwn(doc, 'servers') && !Object.hasOwn(doc, 'mcpServers') ? 'servers' : 'mcpServers';
  const edits: SwitchEdit[] = [{ kind: 'set', path: [key], value: servers }];
  if (key === 'mcpServers' && Object.hasOwn(doc, 'servers'))
    edits.push({ kind: 'set', path: ['servers'], value: undefined });
  return editConfigText(text, doc, edits);
}

/** Reads what the client loads and writes (or, with dryRun, shows) mcp-smart.config.json. */
export async function adoptClient(ctx: AppContext, opts: AdoptOptions): Promise<AdoptResult> {
  const { io, global } = ctx;
  if (opts.scopeFromUse) checkScopeClient(opts.client);
  const defs: DefinitionResult = await loadDefinitions({ ...global, adhoc: [], demo: false, client: opts.client }, io);
  // A file of this client skipped as invalid is said, as every command that reads definitions says it.
  for (const w of defs.warnings) io.stderr(`warning: ${scrubMessage(w)}\n`);
  const adopted: ServerDefinition[] = [];
  const skipped: AdoptResult['skipped'] = [];
  for (const def of defs.servers) {
    if (global.server.length > 0 && !global.server.includes(def.name)) continue;
    const reason = loadedByClient(def);
    if (reason === undefined && defs.rawEntryOf(def)) adopted.push(def);
    else skipped.push({ name: def.name, source: def.source, reason: reason ?? 'no entry to copy' });
  }
  const file = join(io.cwd, SMART_CONFIG_NAME);
  const state = readState(ctx, opts.client);
  if (state) {
    const held = servedNames(file);
    const notServed = held ? switchedOff(state).filter((n) => !held.includes(n)) : [];
    return alreadySwitched(opts.client, file, adopted, skipped, state.appliedAt, notServed);
  }
  if (adopted.length === 0) {
    // Switched by hand: the client runs mcp-smart and none of its own servers is left to adopt.
    if (skipped.some((s) => s.reason === SELF_SERVE)) return alreadySwitched(opts.client, file, [], skipped, 'by hand');
    throw new SmartError('ADOPT_NOTHING', { client: clientLabel(opts.client) });
  }
  const inputs = adopted.map((def) => ({ def, raw: defs.rawEntryOf(def)! }));
  // The entry's name is in every tool name the model receives: one token, unless a server the client keeps has it.
  const entry = switchEntryName(defs.servers.map((d) => d.name));
  // Read before anything is written: no scope, nothing written.
  const scope = opts.scopeFromUse
    ? await readAdoptScope(ctx, {
        client: opts.client,
        config: defs.config,
        store: opts.store,
        adopted,
        entry,
      })
    : undefined;
  const { servers, variables, secrets } = adoptEntries(inputs);
  // What adopt copies as written is written (and shown) exactly; what it made variables of is never written.
  keepPlainValues(stringsOf(servers), secrets);

  const existing = await existingDoc(file);
  // Our other keys (budget, serve, …) stay; the server map is the client's.
  const rest = Object.fromEntries(
    Object.entries(existing.doc).filter(([k]) => k !== 'mcpServers' && k !== 'servers' && k !== '$schema'),
  );
  const schema = existing.doc.$schema !== undefined ? { $schema: existing.doc.$schema } : {};
  const generated = `${JSON.stringify({ ...schema, mcpServers: servers, ...rest }, null, 2)}\n`;
  // A file of the user's is edited in place, its comments and layout kept; a new one (or one of ours) is written whole.
  const text =
    existing.text === undefined || existing.text === generated
      ? generated
      : editedInPlace(existing.text, existing.doc, servers);
  let action: AdoptResult['action'] = opts.dryRun ? 'dry-run' : 'written';
  // Other clients switched here run serve on this file: replacing its servers takes theirs away (said, with the way out).
  const losing =
    existing.text === undefined || existing.text === text
      ? []
      : switchesLosing(ctx, opts.client, namesIn(existing.doc), Object.keys(servers));
  const replacing = !opts.dryRun && opts.force;
  if (losing.length > 0 && !replacing) io.stderr(losingWarning(file, opts.client, losing, false));
  if (existing.text === text) action = 'unchanged';
  else if (existing.text !== undefined && !opts.force && !opts.dryRun)
    throw new SmartError('ADOPT_EXISTS', { file, client: clientLabel(opts.client) });

  // With a scope the client's filter decides what the model sees, so each tool is served first-class (--mode tools).
  const { mode, why } = scope ? { mode: 'tools' as const, why: SCOPE_WHY } : adoptMode(printName(opts.client));
  const launch = launchThis(['--config', file, 'serve', '--mode', mode]);
  const again = scope ? ['--scope-from-use', ...(opts.store ? ['--store', opts.store] : [])] : [];
  const plan = switchOf(ctx, opts.client, inputs, variables, writtenVariables(servers), launch, entry, {
    again,
    ...(scope ? { filter: scope.names } : {}),
  });
  // A switch that would lose a value in the client's files is refused before anything is written.
  if (opts.apply && plan.refusal) throw plan.refusal;
  if (opts.apply && !opts.dryRun) {
    const unwritable = await switchWriteRefusal(plan.plans);
    if (unwritable) throw unwritable;
  }
  const backup = action === 'written' ? await writeOwnFile(file, text, existing.bytes) : undefined;
  if (backup !== undefined && losing.length > 0) io.stderr(losingWarning(file, opts.client, losing, true));
  if (opts.apply && !opts.dryRun) {
    const smartConfig =
      backup !== undefined && existing.bytes
        ? { file, before: existing.bytes.toString('base64'), written: text }
        : undefined;
    await applySwitch(ctx, opts.client, plan.plans, plan.read, smartConfig);
  }
  const sources = [...new Set(adopted.map((d) => d.source))];
  return {
    client: opts.client,
    file,
    action,
    ...(backup ? { backup } : {}),
    clientSwitch: { ...plan.outline, applied: opts.apply === true && !opts.dryRun },
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
    ...switchFor(
      printName(opts.client),
      { entry, mode, ...(why ? { why } : {}) },
      launch,
      carried(opts.client, variables, writtenVariables(servers)),
    ),
    back: wayBack(opts.client, entry, sources, backup),
    ...(scope ? { scope } : {}),
    text,
  };
}

/** Every string value in `v` (the entries as written). */
function stringsOf(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (v === null || typeof v !== 'object') return [];
  return Object.values(v).flatMap(stringsOf);
}

/**
 * The variables the printed add command carries: for a client that withholds its environment (Codex, Gemini CLI)
 * every one the file refers to; for Claude Code, which passes its own on, the secrets adopt made variables of.
 */
function carried(client: ClientId, made: AdoptVariable[], referenced: string[]): string[] {
  if (withholdsEnv(printName(client))) return referenced;
  return [...new Set(made.map((v) => v.variable))].sort();
}

/** A second adopt after --apply: nothing to do, or the servers the client gained since, named (nothing written). */
function alreadySwitched(
  client: ClientId,
  file: string,
  now: ServerDefinition[],
  skipped: AdoptResult['skipped'],
  at: string,
  notServed: string[] = [],
): AdoptResult {
  const label = clientLabel(client);
  const back = `To go back: ${adoptLine(client, '--undo')}  (puts ${label}'s files back as they were before ${at})`;
  const names = now.map((d) => d.name).sort();
  const lost =
    notServed.length > 0
      ? `But ${file} no longer holds ${notServed.join(', ')}, which the switch turned off in ${label} (replaced since, as by adopt <other client> --force): ${label} has them turned off and served by nothing. To turn them back on there: ${adoptLine(client, '--undo')}.\n`
      : '';
  return {
    client,
    file,
    action: names.length === 0 ? 'switched' : 'changed',
    ...(names.length > 0 ? { changedSince: names } : {}),
    ...(notServed.length > 0 ? { notServed } : {}),
    servers: [],
    skipped,
    variables: [],
    switchText:
      names.length === 0
        ? `${label} already runs mcp-smart instead of the adopted servers (switched ${at})${lost ? '.' : ': nothing to do.'}\n${lost}`
        : `${label} loads servers it did not load at the switch (${at}): ${names.join(', ')}. Nothing written: they are not behind mcp-smart and your edit stays as it is. To put them behind it too: ${adoptLine(client, '--undo')}, then ${adoptLine(client, '--apply')}.\n${lost}`,
    back,
    text: '',
  };
}

/** The client's switch to serve on the written file: this mcp-smart, started with `--config <file>`. */
function switchFor(
  client: ClientName,
  how: { entry: string; mode: ServeMode; why?: string },
  launch: Launch,
  carry: string[],
): Pick<AdoptResult, 'switchText' | 'commands' | 'envVars'> {
  const commands = clientCommands(client, how.entry, launch);
  const envVars = carry.length > 0 ? carry : undefined;
  const { entry: name, ...mode } = how;
  return {
    switchText: printConfig({ client, name, launch, ...mode, modeAsked: false, envVars, carry: envVars }),
    ...(commands && { commands }),
    ...(envVars && { envVars }),
  };
}
