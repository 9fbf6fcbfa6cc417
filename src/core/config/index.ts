/** Config pipeline entry: locate → read → validate → merge. Returns server definitions and our own config. */
import { basename, dirname, resolve as resolvePath } from 'node:path';
import { SmartError } from '../../process/errors.js';
import type { AdhocServer, ClientId, ConfigLayer, ServerDefinition, SmartConfig, SourceScope } from '../types.js';
import { READ_AS, readTextFile, stripBom } from '../../process/read-file.js';
import { danglingLinkTarget } from '../../process/link-target.js';
import { DEFAULT_WEIGHTS } from '../discover/weights.js';
import { adhocDefinitions } from './adhoc.js';
import { applyGeminiLists, geminiServerLists, type GeminiServerLists } from './client-rules.js';
import { applyClientTrust, claudeTrustOf, geminiTrustOf, type TrustContext } from './client-trust.js';
import { demoServerDefinitions } from './demo.js';
import { entryKeyWarnings, filterKeyTypo } from './entry-keys.js';
import { dict } from '../dict.js';
import { parseEnvFile } from './env-file.js';
import type { ExpandContext } from './expand.js';
import { expandServer } from './expand-server.js';
import { detectClient, findServerGroups, ignoredMapWarning, projectEntryFor } from './formats.js';
import { formatKeyPath, isPlainObject } from './key-path.js';
import {
  brokenLinkWarning,
  claudeApprovalFiles,
  claudeCodeUserFile,
  codexUserFile,
  geminiTrustedFoldersFile,
  projectLocations,
  SMART_CONFIG_NAME,
  userLocations,
  type ConfigLocation,
} from './locate.js';
import { mergeDefinitions, type Shadowing } from './merge.js';
import { detectSyntax, duplicateKeyWarning, emptyFileWarnings, parseConfigDocument, parseConfigText } from './parse.js';
import { orderByPrecedence, resolveClients, type ClientResolution } from './resolve.js';
import { normalizeServerEntry, writtenFields, type RawServer, type WrittenFields } from './server-entry.js';
import { ownSectionsWarning, readAsOurs, refuseOwnFile, smartConfigBy, unknownServeServers } from './own-config.js';
import { validateSmartConfig } from './validate.js';
import { firstIssue, type SourceFile } from './own-files.js';

export type { Shadowing, ClientResolution, WrittenFields };
export { CLIENT_IDS, CLIENTS, parseClientName } from './clients.js';
export {
  hiddenToolNames,
  hiddenToolsBySnapshot,
  hiddenSnapshots,
  sentSnapshots,
  toolHiddenBy,
  visibilityRules,
} from './tool-filter.js';

export interface DefinitionRequest {
  /** --config files, in order. When non-empty the default locations are not searched. */
  configFiles: string[];
  adhoc: AdhocServer[];
  demo: boolean;
  cwd: string;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
  /** Absolute path of the node binary, for the demo servers. */
  nodePath: string;
  /** Where the demo servers work; default os.tmpdir()/mcp-smart-demo. */
  demoScratchDir?: string;
  /** Read only our own config (cwd's mcp-smart.config.json or --config files), e.g. when analysing a snapshot. */
  ownConfigOnly?: boolean;
  /** `--client`: only the servers that client loads, from its own files, with its precedence. */
  client?: ClientId;
  /** Root of machine-wide files (Gemini's system settings); tests point it at a temporary folder. */
  systemRoot?: string;
}

export interface DefinitionResult {
  /** Every server after precedence, enabled and disabled, in a stable order. */
  servers: ServerDefinition[];
  shadowings: Shadowing[];
  /** Every location looked at, and whether a file was there. */
  /** `brokenLink`: the file is a symbolic link to nothing; the missing file it points to. */
  searched: { file: string; found: boolean; brokenLink?: string }[];
  /** Our own mcp-smart.config.json keys (budget, thresholds, …), validated; {} when none. */
  config: SmartConfig;
  configFile?: string;
  warnings: string[];
  /** Server name → environment variables its definition referenced (lets --debug scrub their values). */
  referencedVars?: Record<string, string[]>;
  /**
   * Server name → its command, args, cwd and url as written in the file, for the fields that reference a
   * variable: --debug shows these, so it names the variable the file really used.
   */
  written?: Record<string, WrittenFields>;
  /** Each client's own view (its files, its precedence): which client each definition belongs to. */
  clients: ClientResolution[];
  /** The client `--client` selected, when one was. */
  client?: ClientId;
  /**
   * A definition's entry as its file has it, before `${VAR}` expansion (for `adopt`, which must write references,
   * never values). A function, so the entry never lands in a JSON dump of the result.
   */
  rawEntryOf: (def: ServerDefinition) => RawServer | undefined;
}

const varsKey = (d: ServerDefinition): string => `${d.source}\u0000${d.name}`;

class Loader {
  readonly warnings: string[] = [];
  readonly referencedVars: Record<string, string[]> = dict();
  readonly raw = new Map<string, RawServer>();
  readonly written: Record<string, WrittenFields> = dict();
  readonly defs: ServerDefinition[] = [];
  readonly envFiles: { def: ServerDefinition; file: string }[] = [];
  readonly geminiLists: GeminiServerLists[] = [];
  readonly claudeProjectDocs: { file: string; doc: unknown }[] = [];
  readonly geminiSettings: unknown[] = [];
  /** User-level files skipped as invalid, with the client that owns each and why. */
  readonly skipped: { client?: ClientId; error: SmartError }[] = [];
  smart?: { config: SmartConfig; file: string };
  codexTrust?: { level?: string; file: string };
  private readonly ctx: ExpandContext;

  constructor(private readonly req: DefinitionRequest) {
    this.ctx = { env: req.env, cwd: req.cwd, home: req.home, platform: req.platform };
  }

  /** Parses one file and turns its entries into definitions, read as the file's client reads them. */
  collect(source: SourceFile, text: string, opts: { serversWanted: boolean }): void {
    const { file } = source;
    const { value: doc, duplicateKeys } = parseConfigDocument(file, text);
    if (source.scope === 'explicit') refuseOwnFile(file, doc);
    if (duplicateKeys.length > 0) this.warnings.push(duplicateKeyWarning(file, duplicateKeys));
    const syntax = detectSyntax(file, stripBom(text));
    const detected = source.scope === 'explicit' ? detectClient(file, doc, syntax) : source.client;
    // By name only: entries copied from Gemini (excludeTools, oauth) beside our `serve` still make the file ours.
    const by = smartConfigBy(
      source,
      doc,
      source.scope === 'explicit' ? detectClient(file, undefined, syntax) : detected,
    );
    const ours = by !== undefined;
    if (!ours) this.warnings.push(...emptyFileWarnings(file, text));
    if (ours && isPlainObject(doc)) {
      const { config, issues } = validateSmartConfig(doc, DEFAULT_WEIGHTS);
      if (issues.length > 0) throw firstIssue(file, issues, readAsOurs(by));
      if (this.smart && Object.keys(config).length > 0)
        this.warnings.push(
          `${file}: its own settings (${Object.keys(config).join(', ')}) are not used: only the first mcp-smart config file given has them read (${this.smart.file}).`,
        );
      this.smart ??= { config, file };
    }
    if (!ours && detected !== undefined && source.scope === 'explicit') {
      const unread = ownSectionsWarning(file, doc, detected);
      if (unread) this.warnings.push(unread);
    }
    if (!opts.serversWanted) return;
    const client = ours ? undefined : detected;
    if (this.req.client !== undefined && client !== this.req.client) return;
    // Gemini reads security.folderTrust from system and user settings only, never the workspace's own.
    if (client === 'gemini' && source.layer !== 'project') this.geminiSettings.push(doc);
    if (client === 'codex' && source.layer === 'user' && this.codexTrust === undefined) {
      const level = projectEntryFor(doc, this.req.cwd, this.req.platform)?.trust_level;
      this.codexTrust = { file, ...(typeof level === 'string' ? { level } : {}) };
    }
    const found = findServerGroups(doc, file, { cwd: this.req.cwd, platform: this.req.platform, client });
    if (!found) {
      if (source.scope === 'explicit' && !ours) throw new SmartError('CONFIG_UNKNOWN_SHAPE', { file });
      return;
    }
    for (const key of found.ignored) this.warnings.push(ignoredMapWarning(file, key, client));
    this.warnings.push(...found.problems);
    if (client === 'gemini') {
      const lists = geminiServerLists(doc, file, source.layer ?? 'project');
      if (lists) this.geminiLists.push(lists);
    }
    if (client === 'claude-code' && basename(file) === basename(claudeCodeUserFile(this.req.home))) {
      const entry = projectEntryFor(doc, this.req.cwd, this.req.platform);
      if (entry) this.claudeProjectDocs.push({ file: `${file}#projects[${JSON.stringify(this.req.cwd)}]`, doc: entry });
    }
    for (const group of found.groups) {
      const local = group.projectEntry !== undefined;
      const projectTier = source.scope === 'project' || local;
      const scope: SourceScope = source.scope === 'explicit' ? 'explicit' : projectTier ? 'project' : 'user';
      const layer: ConfigLayer | undefined = local ? 'local' : source.layer;
      const label = local ? `${file}#projects[${JSON.stringify(group.projectEntry)}]` : file;
      for (const [name, entry] of Object.entries(group.entries)) {
        const at = [...group.at, name];
        if (name.trim() === '') {
          throw new SmartError('CONFIG_INVALID', {
            file,
            key: formatKeyPath(at),
            reason: 'a server name must not be empty.',
          });
        }
        const raw = normalizeServerEntry(name, entry, at, file, client);
        const typo = ours ? filterKeyTypo(entry, at) : undefined;
        if (typo) throw new SmartError('CONFIG_INVALID', { file, ...typo });
        this.warnings.push(...entryKeyWarnings(entry, at, file));
        const origin = { source: label, scope, ...(client ? { client } : {}), ...(layer ? { layer } : {}) };
        const x = expandServer(raw, origin, scope === 'explicit' ? { ...this.ctx, base: dirname(file) } : this.ctx);
        this.warnings.push(...x.warnings);
        this.raw.set(varsKey(x.def), raw);
        if (x.used.length > 0) {
          this.referencedVars[varsKey(x.def)] = x.used;
          this.written[varsKey(x.def)] = writtenFields(raw);
        }
        if (x.envFile !== undefined) this.envFiles.push({ def: x.def, file: x.envFile });
        this.defs.push(x.def);
      }
    }
  }

  /**
   * Reads one file whole or not at all: when `read` throws, everything it had added is taken back, so a user-level
   * file skipped for one bad entry adds none of the entries before it (the warning says the file was skipped).
   */
  atomically(read: () => void): void {
    const lists = [
      this.warnings,
      this.defs,
      this.envFiles,
      this.geminiLists,
      this.claudeProjectDocs,
      this.geminiSettings,
    ];
    const lengths = lists.map((l) => l.length);
    const raw = new Map(this.raw);
    const vars = { ...this.referencedVars };
    const written = { ...this.written };
    const { smart, codexTrust } = this;
    try {
      read();
    } catch (e) {
      lists.forEach((l, i) => l.splice(lengths[i]!));
      this.raw.clear();
      for (const [k, v] of raw) this.raw.set(k, v);
      for (const k of Object.keys(this.referencedVars)) if (!Object.hasOwn(vars, k)) delete this.referencedVars[k];
      for (const k of Object.keys(this.written)) if (!Object.hasOwn(written, k)) delete this.written[k];
      this.smart = smart;
      this.codexTrust = codexTrust;
      throw e;
    }
  }

  /** VS Code / Cursor envFile: loaded when present (the entry's env wins), named in a warning when missing. */
  async loadEnvFiles(): Promise<void> {
    const texts = await readAll(this.envFiles.map((e) => e.file));
    this.envFiles.forEach(({ def, file }, i) => {
      const text = texts[i];
      if (text === undefined) {
        this.warnings.push(
          `server "${def.name}" (${def.source}): envFile ${file} was not found; the server starts without its variables.`,
        );
        return;
      }
      def.env = { ...parseEnvFile(text), ...def.env };
    });
  }
}

/** Every path here is absolute already (resolved from cwd or home), so the base folder is never used. */
async function readAll(files: string[]): Promise<(string | undefined)[]> {
  return Promise.all(files.map((f) => readTextFile(f, '/', READ_AS.config)));
}

function parseQuietly(file: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  return parseConfigText(file, text);
}

/** Finds, reads, validates and merges every server definition the request names. */
export async function loadServerDefinitions(req: DefinitionRequest): Promise<DefinitionResult> {
  const loader = new Loader(req);
  const searched: DefinitionResult['searched'] = [];
  const explicit = req.configFiles.length > 0;
  const searchDefaults = !explicit && req.adhoc.length === 0 && !req.demo && req.ownConfigOnly !== true;

  if (explicit) {
    const given = req.configFiles.map((f) => resolvePath(req.cwd, f));
    // The same file twice: read once (read twice, its servers were each "shadowed by" themselves).
    const files = [...new Set(given)];
    for (const f of files.filter((f) => given.indexOf(f) !== given.lastIndexOf(f)))
      loader.warnings.push(`${f} is given more than once with --config; it is read once.`);
    const texts = await readAll(files);
    files.forEach((file, i) => {
      const text = texts[i];
      searched.push({ file, found: text !== undefined });
      if (text === undefined)
        throw new SmartError('FILE_NOT_FOUND', { file, hint: 'Check the path given to --config.' });
      loader.collect({ file, scope: 'explicit' }, text, { serversWanted: true });
    });
  } else if (searchDefaults) {
    // Run in the home folder, a project file is the user's own (~/.cursor/mcp.json, ~/.gemini/settings.json): read
    // once, as the user's. Read as both, its servers waited for a project approval and shadowed themselves.
    const user = userLocations(req);
    const userFiles = new Set(user.map((l) => resolvePath(l.file)));
    const project = projectLocations(req.cwd).filter((l) => !userFiles.has(resolvePath(l.file)));
    const locations: ConfigLocation[] = [...project, ...user].filter(
      (l) => req.client === undefined || l.smart === true || l.client === req.client,
    );
    // Each file read on its own: a user-level path that cannot be read (a folder) is skipped like an invalid file.
    const texts = await Promise.all(
      locations.map((l) =>
        readTextFile(l.file, '/', READ_AS.config).then(
          async (text) => (text !== undefined ? { text } : { text, link: await danglingLinkTarget(l.file) }),
          (error: unknown) => ({ error }),
        ),
      ),
    );
    locations.forEach((location, i) => {
      const read = texts[i]!;
      const text = 'text' in read ? read.text : undefined;
      const link = 'link' in read ? read.link : undefined;
      searched.push({
        file: location.file,
        found: text !== undefined || 'error' in read,
        ...(link && { brokenLink: link }),
      });
      if (link) loader.warnings.push(brokenLinkWarning(location.file, link));
      try {
        if ('error' in read) throw read.error;
        if (text !== undefined) loader.atomically(() => loader.collect(location, text, { serversWanted: true }));
      } catch (e) {
        // One broken user-level file (another client's) must not stop a project whose own config is fine.
        if (location.scope !== 'user' || !(e instanceof SmartError) || e.exitCode !== 2) throw e;
        const said = /[.!?]$/.test(e.message) ? e.message : `${e.message}.`;
        loader.warnings.push(`${said} This user-level file was skipped; pass it with --config to see it fail.`);
        loader.skipped.push({ ...(location.client ? { client: location.client } : {}), error: e });
      }
    });
  }
  // --client (and adopt) asked for one client's servers: its own file skipped as invalid, leaving it none, is the
  // answer's reason, not a footnote to "no servers found".
  const own = loader.skipped.find((x) => x.client !== undefined && x.client === req.client);
  if (own && !loader.defs.some((d) => d.client === req.client)) throw own.error;
  const trust: TrustContext = {};
  if (loader.defs.some((d) => d.client === 'claude-code')) {
    const files = claudeApprovalFiles(req.cwd, req.home);
    const texts = await readAll(files);
    files.forEach((file, i) => searched.push({ file, found: texts[i] !== undefined }));
    const settings = files.map((file, i) => ({ file, doc: parseQuietly(file, texts[i]) }));
    trust.claude = claudeTrustOf(settings, loader.claudeProjectDocs[0]);
  }
  if (loader.defs.some((d) => d.client === 'gemini')) {
    const foldersFile = geminiTrustedFoldersFile(req);
    const [text] = await readAll([foldersFile]);
    searched.push({ file: foldersFile, found: text !== undefined });
    trust.gemini = geminiTrustOf({
      settings: loader.geminiSettings,
      folders: text === undefined ? undefined : { file: foldersFile, doc: parseQuietly(foldersFile, text) },
      foldersFile,
      cwd: req.cwd,
      env: req.env,
      platform: req.platform,
    });
  }
  if (loader.defs.some((d) => d.client === 'codex')) trust.codex = loader.codexTrust ?? { file: codexUserFile(req) };
  loader.warnings.push(...applyClientTrust(loader.defs, trust));
  applyGeminiLists(loader.defs, loader.geminiLists, loader.warnings);
  await loader.loadEnvFiles();
  // Budgets, thresholds and weights belong to the project: read them even when servers come from elsewhere.
  if (!searchDefaults && !loader.smart) {
    const file = resolvePath(req.cwd, SMART_CONFIG_NAME);
    if (!searched.some((s) => s.file === file)) {
      const [text] = await readAll([file]);
      searched.push({ file, found: text !== undefined });
      if (text !== undefined) loader.collect({ file, scope: 'project', smart: true }, text, { serversWanted: false });
    }
  }

  const ordered: ServerDefinition[] = [...adhocDefinitions(req.adhoc), ...orderByPrecedence(loader.defs)];
  if (req.demo)
    ordered.push(...(await demoServerDefinitions({ nodePath: req.nodePath, scratchDir: req.demoScratchDir })));
  const { servers, shadowings } = mergeDefinitions(ordered);
  // Names are known unless servers come from a snapshot or an unnamed ad-hoc server is named by its serverInfo later.
  if (req.ownConfigOnly !== true && req.adhoc.every((a) => a.name !== undefined) && loader.smart)
    loader.warnings.push(
      ...unknownServeServers(
        loader.smart.config.serve,
        servers.map((s) => s.name),
        loader.smart.file,
      ),
    );
  const referencedVars = dict(
    servers
      .filter((s) => loader.referencedVars[varsKey(s)])
      .map((s) => [s.name, loader.referencedVars[varsKey(s)] as string[]]),
  );
  const written = dict(
    servers.filter((s) => loader.written[varsKey(s)]).map((s) => [s.name, loader.written[varsKey(s)]!]),
  );
  const result: DefinitionResult = {
    servers,
    shadowings,
    searched,
    config: loader.smart?.config ?? {},
    warnings: loader.warnings,
    referencedVars,
    written,
    clients: resolveClients(loader.defs),
    rawEntryOf: (def) => loader.raw.get(varsKey(def)),
  };
  if (req.client !== undefined) result.client = req.client;
  if (loader.smart) result.configFile = loader.smart.file;
  return result;
}
