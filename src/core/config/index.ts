/** Config pipeline entry: locate → read → validate → merge. Returns server definitions and our own config. */
import { basename, dirname, resolve as resolvePath } from 'node:path';
import { SmartError } from '../../errors.js';
import type { AdhocServer, ServerDefinition, SmartConfig, SourceScope } from '../../types.js';
import { DEFAULT_WEIGHTS } from '../discover/weights.js';
import { demoServerDefinitions } from './demo.js';
import { expandString, type ExpandContext } from './expand.js';
import { findServerGroups } from './formats.js';
import { formatKeyPath, isPlainObject } from './key-path.js';
import {
  projectLocations,
  SMART_CONFIG_NAME,
  userLocations,
  type ConfigFlavor,
  type ConfigLocation,
} from './locate.js';
import { mergeDefinitions, type Shadowing } from './merge.js';
import { parseConfigText } from './parse.js';
import { readTextFile } from '../../read-file.js';
import { normalizeServerEntry, type RawServer } from './server-entry.js';
import { entryKeyWarnings } from './entry-keys.js';
import { dict } from '../dict.js';
import { splitCommandLine } from './shell-split.js';
import { validateSmartConfig } from './validate.js';

export type { Shadowing };

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
}

export interface DefinitionResult {
  /** Every server after precedence, enabled and disabled, in a stable order. */
  servers: ServerDefinition[];
  shadowings: Shadowing[];
  /** Every location looked at, and whether a file was there. */
  searched: { file: string; found: boolean }[];
  /** Our own mcp-smart.config.json keys (budget, thresholds, …), validated; {} when none. */
  config: SmartConfig;
  configFile?: string;
  warnings: string[];
  /** Server name → environment variables its definition referenced (lets --debug scrub their values). */
  referencedVars?: Record<string, string[]>;
}

const SMART_ONLY_KEYS = ['budget', 'thresholds', 'baseline', 'patterns', 'weights', 'keywords', 'cache'];
const SMART_KEYS = new Set([...SMART_ONLY_KEYS, '$schema', 'servers', 'mcpServers']);

interface SourceFile {
  location: ConfigLocation | { file: string; scope: 'explicit'; flavor: ConfigFlavor };
  text: string;
}

interface Collected {
  project: ServerDefinition[];
  user: ServerDefinition[];
  smart?: { config: SmartConfig; file: string };
}

/** Our own config: by location, by file name, or by shape (only our keys, at least one of ours only). */
function isSmartConfig(file: string, flavor: ConfigFlavor, doc: unknown): boolean {
  if (flavor === 'smart' || /^mcp-smart([.-].*)?\.json$/i.test(basename(file))) return true;
  if (!isPlainObject(doc)) return false;
  const keys = Object.keys(doc);
  return keys.some((k) => SMART_ONLY_KEYS.includes(k)) && keys.every((k) => SMART_KEYS.has(k));
}

function flavorOf(file: string): ConfigFlavor {
  if (/\.toml$/i.test(file)) return 'codex';
  if (basename(file) === 'settings.json' && basename(dirname(file)) === '.gemini') return 'gemini';
  return 'generic';
}

function expandServer(
  raw: RawServer,
  source: string,
  scope: SourceScope,
  ctx: ExpandContext,
  warnings: string[],
  used: Set<string>,
): ServerDefinition {
  const reported = new Set<string>();
  const x = (text: string): string => {
    const r = expandString(text, ctx);
    for (const v of r.used) used.add(v);
    for (const v of r.missing) {
      if (reported.has(v)) continue;
      reported.add(v);
      warnings.push(`server "${raw.name}" (${source}): \${${v}} is not set; using an empty string.`);
    }
    for (const v of r.unsupported) {
      if (reported.has(v)) continue;
      reported.add(v);
      warnings.push(
        `server "${raw.name}" (${source}): \${${v}} can only be resolved by the client that owns this file; using an empty string.`,
      );
    }
    return r.value;
  };
  const mapValues = (m: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, x(v)]));
  const def: ServerDefinition = { name: raw.name, transport: raw.transport, enabled: raw.enabled, source, scope };
  if (raw.command !== undefined) def.command = x(raw.command);
  if (raw.transport === 'stdio') def.args = (raw.args ?? []).map(x);
  if (raw.env) def.env = mapValues(raw.env);
  if (raw.cwd !== undefined) def.cwd = resolvePath(ctx.cwd, x(raw.cwd));
  if (raw.url !== undefined) def.url = x(raw.url);
  if (raw.headers) def.headers = mapValues(raw.headers);
  if (raw.autoTransport) def.autoTransport = true;
  return def;
}

function firstIssue(file: string, issues: { key: string; reason: string }[]): SmartError {
  const [first] = issues;
  const more =
    issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''} in this file)` : '';
  return new SmartError('CONFIG_INVALID', { file, key: first?.key ?? '', reason: `${first?.reason ?? ''}${more}` });
}

const varsKey = (d: ServerDefinition): string => `${d.source}\u0000${d.name}`;

class Loader {
  readonly warnings: string[] = [];
  readonly referencedVars: Record<string, string[]> = dict();
  private readonly ctx: ExpandContext;

  constructor(private readonly req: DefinitionRequest) {
    this.ctx = { env: req.env, cwd: req.cwd, home: req.home, platform: req.platform };
  }

  /** Parses one file and turns its entries into definitions (project-tier and user-tier). */
  collect(source: SourceFile, out: Collected, opts: { serversWanted: boolean }): void {
    const { file, flavor } = source.location;
    const doc = parseConfigText(file, source.text);
    const ours = isSmartConfig(file, flavor, doc);
    if (ours && isPlainObject(doc)) {
      const { config, issues } = validateSmartConfig(doc, DEFAULT_WEIGHTS);
      if (issues.length > 0) throw firstIssue(file, issues);
      if (!out.smart) out.smart = { config, file };
    }
    if (!opts.serversWanted) return;
    const groups = findServerGroups(doc, file, { cwd: this.req.cwd, platform: this.req.platform });
    if (!groups) {
      if (source.location.scope === 'explicit' && !ours) throw new SmartError('CONFIG_UNKNOWN_SHAPE', { file });
      return;
    }
    for (const group of groups) {
      const projectTier = source.location.scope === 'project' || group.projectEntry !== undefined;
      const scope: SourceScope = source.location.scope === 'explicit' ? 'explicit' : projectTier ? 'project' : 'user';
      const label = group.projectEntry !== undefined ? `${file}#projects[${JSON.stringify(group.projectEntry)}]` : file;
      for (const [name, entry] of Object.entries(group.entries)) {
        const at = [...group.at, name];
        if (name.trim() === '') {
          throw new SmartError('CONFIG_INVALID', {
            file,
            key: formatKeyPath(at),
            reason: 'a server name must not be empty.',
          });
        }
        const raw = normalizeServerEntry(name, entry, at, file, flavor);
        this.warnings.push(...entryKeyWarnings(entry, at, file));
        const used = new Set<string>();
        const def = expandServer(raw, label, scope, this.ctx, this.warnings, used);
        if (used.size > 0) this.referencedVars[varsKey(def)] = [...used].sort();
        (projectTier ? out.project : out.user).push(def);
      }
    }
  }

  adhocDefinitions(): ServerDefinition[] {
    const counters = { stdio: 0, url: 0 };
    return this.req.adhoc.map((a): ServerDefinition => {
      counters[a.kind]++;
      const name = a.name ?? `${a.kind}-${counters[a.kind]}`;
      const base = { name, enabled: true, scope: 'adhoc' as const, ...(a.name ? {} : { nameFromServer: true }) };
      if (a.kind === 'stdio') {
        const [command, ...args] = splitCommandLine(a.value, '--stdio');
        if (command === undefined || command === '') {
          throw new SmartError('BAD_FLAG', {
            flag: '--stdio',
            value: a.value,
            hint: 'Give the command line that starts the server, e.g. --stdio "node dist/index.js".',
          });
        }
        return { ...base, transport: 'stdio', command, args, source: '--stdio' };
      }
      let parsed: URL | undefined;
      try {
        parsed = new URL(a.value);
      } catch {
        parsed = undefined;
      }
      if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
        throw new SmartError('BAD_FLAG', {
          flag: '--url',
          value: a.value,
          hint: 'Expected an http:// or https:// URL, e.g. --url http://127.0.0.1:3000/mcp.',
        });
      }
      return { ...base, transport: 'http', url: a.value, autoTransport: true, source: '--url' };
    });
  }
}

/** Every path here is absolute already (resolved from cwd or home), so the base folder is never used. */
async function readAll(files: string[]): Promise<(string | undefined)[]> {
  return Promise.all(files.map((f) => readTextFile(f, '/')));
}

/** Finds, reads, validates and merges every server definition the request names. */
export async function loadServerDefinitions(req: DefinitionRequest): Promise<DefinitionResult> {
  const loader = new Loader(req);
  const searched: DefinitionResult['searched'] = [];
  const collected: Collected = { project: [], user: [] };
  const explicit = req.configFiles.length > 0;
  const searchDefaults = !explicit && req.adhoc.length === 0 && !req.demo && req.ownConfigOnly !== true;

  if (explicit) {
    const files = req.configFiles.map((f) => resolvePath(req.cwd, f));
    const texts = await readAll(files);
    files.forEach((file, i) => {
      const text = texts[i];
      searched.push({ file, found: text !== undefined });
      if (text === undefined)
        throw new SmartError('FILE_NOT_FOUND', { file, hint: 'Check the path given to --config.' });
      loader.collect({ location: { file, scope: 'explicit', flavor: flavorOf(file) }, text }, collected, {
        serversWanted: true,
      });
    });
  } else if (searchDefaults) {
    const locations = [...projectLocations(req.cwd), ...userLocations(req)];
    const texts = await readAll(locations.map((l) => l.file));
    locations.forEach((location, i) => {
      const text = texts[i];
      searched.push({ file: location.file, found: text !== undefined });
      if (text === undefined) return;
      try {
        loader.collect({ location, text }, collected, { serversWanted: true });
      } catch (e) {
        // One broken user-level file (another client's) must not stop a project whose own config is fine.
        if (location.scope !== 'user' || !(e instanceof SmartError) || e.exitCode !== 2) throw e;
        loader.warnings.push(`${e.message} This user-level file was skipped; pass it with --config to see it fail.`);
      }
    });
  }
  // Budgets, thresholds and weights belong to the project: read them even when servers come from elsewhere.
  if (!searchDefaults && !collected.smart) {
    const file = resolvePath(req.cwd, SMART_CONFIG_NAME);
    if (!searched.some((s) => s.file === file)) {
      const [text] = await readAll([file]);
      searched.push({ file, found: text !== undefined });
      if (text !== undefined) {
        loader.collect(
          { location: { file, scope: 'project', client: 'mcp-smart', flavor: 'smart' }, text },
          collected,
          { serversWanted: false },
        );
      }
    }
  }

  const ordered: ServerDefinition[] = [...loader.adhocDefinitions(), ...collected.project, ...collected.user];
  if (req.demo)
    ordered.push(...(await demoServerDefinitions({ nodePath: req.nodePath, scratchDir: req.demoScratchDir })));
  const { servers, shadowings } = mergeDefinitions(ordered);
  const referencedVars = dict(
    servers
      .filter((s) => loader.referencedVars[varsKey(s)])
      .map((s) => [s.name, loader.referencedVars[varsKey(s)] as string[]]),
  );
  const result: DefinitionResult = {
    servers,
    shadowings,
    searched,
    config: collected.smart?.config ?? {},
    warnings: loader.warnings,
    referencedVars,
  };
  if (collected.smart) result.configFile = collected.smart.file;
  return result;
}
