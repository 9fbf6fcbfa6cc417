/**
 * The `init` use case: chooses the servers, decides every file before writing one (a refusal leaves the folder
 * untouched), then writes mcp-smart.config.json, a first baseline, a committed snapshot and the CI workflow.
 */
import { lstat, readlink } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { writeFileSafe } from '../../process/safe-write.js';
import { buildBaseline, DEFAULT_BASELINE, measureServers, serializeBaseline } from '../../core/budget/index.js';
import {
  chooseCiInstall,
  ciSecrets,
  ciWorkflowYaml,
  shellQuote,
  updateCommands,
  type CiWorkflowPlan,
} from '../../core/ci-workflow.js';
import { CONFIG_FILE, INIT_SNAPSHOT_FILE, WORKFLOW_FILE, configEntries, type InitResult } from '../../core/init.js';
import { buildSnapshot } from '../../core/snapshot.js';
import { countToolTokens } from '../../core/tokens/index.js';
import { SmartError } from '../../process/errors.js';
import { READ_AS, readJsonFile, unreadable } from '../../process/read-file.js';
import type { ServerDefinition, ServerSnapshot } from '../../core/types.js';
import { VERSION } from '../../process/version.js';
import type { AppContext } from '../services/context.js';
import { counterFor } from '../services/counter.js';
import { loadDefinitions, noServerError } from '../services/definitions.js';
import { resolvePaths } from '../services/paths.js';
import { clientHeldProjectServers, projectApproved } from '../services/project-trust.js';
import { isProjectFileServer } from '../../core/trust/project-gate.js';
import { loadSetup } from '../services/setup.js';
import { initConfigText } from './init-config.js';
import { knownNames } from '../../core/config/key-path.js';

/** The settings init writes; the flags give them, an interactive run may change them. */
export interface InitSettings {
  servers: string[];
  max: number;
  share: number;
  /** The growth limit as written to the config ("5%" or a number of tokens). */
  maxGrowth: string;
  github: boolean;
}

export interface InitOptions extends Omit<InitSettings, 'servers'> {
  /** `--servers a,b`; without it `-s`, else every server found. */
  servers?: string[];
  /** False with --no-baseline. */
  baseline: boolean;
  force: boolean;
  /** With --github: check a committed snapshot in CI even for project servers. */
  ciSnapshot: boolean;
}

/** What an interactive run asks; the command brings the prompts (the use case never prompts). */
export interface InitQuestions {
  settings(found: string[], current: InitSettings): Promise<InitSettings>;
  /** The workflow would start project servers on the runner: check a committed snapshot instead? */
  ciSnapshot(selected: string[]): Promise<boolean>;
  overwrite(file: string): Promise<boolean>;
}

export interface InitOutcome {
  result: InitResult;
  exitCode: number;
  /** The snapshot the check reads, when it reads one (the reporter says how to refresh it). */
  snapshotFile?: string;
  /** The words after `mcp-smart` that refresh that snapshot (`--config` files, `-s` servers, `dump -o <file>`). */
  refreshWords?: string[];
  /** The command(s) that refresh the baseline (and snapshot) after an intended change, with --github. */
  updateCommand?: string;
}

/**
 * Whether the project file exists. A symbolic link there or on a folder on the way (dangling or not) is refused, even
 * with --force: a cloned repository could point mcp-smart.lock.json (or .github) at another program's file (folder),
 * and the write would replace that file. `shown` is the path relative to the project, with `/` between its parts.
 */
async function exists(cwd: string, shown: string): Promise<boolean> {
  const parts = shown.split('/');
  // The folders on the way too: a linked .github took the workflow into the folder it points at, outside the project.
  for (let i = 1; i <= parts.length; i++) {
    const at = parts.slice(0, i).join('/');
    const file = resolve(cwd, at);
    const st = await lstat(file).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw unreadable(file, e);
    });
    if (!st) return false;
    if (st.isSymbolicLink())
      throw new SmartError('FILE_LINK', {
        file: at,
        target: await readlink(file).catch(() => undefined),
        command: 'init',
      });
    if (i < parts.length && !st.isDirectory())
      throw new SmartError('FILE_UNWRITABLE', {
        file: shown,
        reason: `${at} is not a folder. Move it away (init writes ${shown} inside it) and run init again.`,
      });
  }
  return true;
}

/** Sets the project up; `questions` only when the command runs interactively. */
export async function initProject(
  ctx: AppContext,
  options: InitOptions,
  questions?: InitQuestions,
): Promise<InitOutcome> {
  const { io, global } = ctx;
  const fromSnapshot = global.snapshot.length > 0;
  const { found, definitions, configFiles, referencedVars } = await findServers(ctx);
  const wanted = options.servers ?? (global.server.length > 0 ? global.server : found);
  for (const name of wanted) {
    if (!found.includes(name)) throw new SmartError('UNKNOWN_SERVER', { name, ...knownNames(name, found) });
  }
  const { max, share, maxGrowth, github } = options;
  let settings: InitSettings = { servers: wanted, max, share, maxGrowth, github };
  if (questions) settings = await questions.settings(found, settings);

  const selected = settings.servers;
  const subset = selected.length < found.length;
  const adhoc = definitions.filter((d) => selected.includes(d.name) && d.scope === 'adhoc');
  // A file named with --config is the project's when it lies in the project: CI checks it out and reads it too.
  const inProject = (f: string): boolean => !isAbsolute(projectPath(io.cwd, f));
  const userScoped = definitions.some(
    (d) =>
      selected.includes(d.name) &&
      d.scope !== 'project' &&
      d.scope !== 'adhoc' &&
      !(d.scope === 'explicit' && inProject(d.source)),
  );
  // A snapshot or config inside the project is referenced relative to it (CI checks out there); anything else as given.
  const snapshotArgs = fromSnapshot ? global.snapshot.flatMap((f) => ['--snapshot', projectPath(io.cwd, f)]) : [];
  const configArgs = configFiles.flatMap((f) => ['--config', projectPath(io.cwd, f)]);
  // CI has no user-level configs: servers found there are checked from a committed snapshot. Project servers
  // would be started on the CI runner: say so, and offer the snapshot there too (--ci-snapshot).
  let ciSnapshot = options.ciSnapshot;
  const liveInCi = settings.github && !fromSnapshot && !userScoped;
  if (liveInCi && !ciSnapshot && questions) ciSnapshot = await questions.ciSnapshot(selected);
  const writeSnapshot = settings.github && !fromSnapshot && (userScoped || ciSnapshot);
  const checkArgs = [
    ...(writeSnapshot ? ['--snapshot', INIT_SNAPSHOT_FILE] : fromSnapshot ? snapshotArgs : configArgs),
    ...(subset ? selected.flatMap((s) => ['-s', s]) : []),
  ];

  const plannedFiles: InitResult['files'] = [{ path: CONFIG_FILE, kind: 'config', written: false }];
  if (options.baseline) plannedFiles.push({ path: DEFAULT_BASELINE, kind: 'baseline', written: false });
  if (writeSnapshot) plannedFiles.push({ path: INIT_SNAPSHOT_FILE, kind: 'snapshot', written: false });
  if (settings.github) plannedFiles.push({ path: WORKFLOW_FILE, kind: 'workflow', written: false });
  // Decide about every existing file before writing anything, so a refusal leaves the folder untouched.
  for (const f of plannedFiles) {
    if (!(await exists(io.cwd, f.path)) || options.force) continue;
    if (questions && (await questions.overwrite(f.path))) continue;
    throw new SmartError('FILE_EXISTS', { file: f.path });
  }

  // Before any server is started or file written: an existing config that cannot take init's keys is refused.
  const entries = configEntries(adhoc);
  const configText = initConfigText(resolve(io.cwd, CONFIG_FILE), CONFIG_FILE, {
    budget: { max: settings.max, share: settings.share },
    thresholds: { maxGrowth: settings.maxGrowth },
    baseline: DEFAULT_BASELINE,
    servers: entries.servers,
  });

  const servers =
    options.baseline || writeSnapshot ? await reachServers(ctx, selected, options.baseline, configFiles) : [];
  const unavailable = servers.filter((s) => s.status === 'error').map((s) => s.name);
  let plan: CiWorkflowPlan | undefined;
  if (settings.github) {
    const install = chooseCiInstall(
      await readJsonFile('package.json', io.cwd, READ_AS.manifest),
      await readJsonFile('package-lock.json', io.cwd, READ_AS.manifest),
      VERSION,
    );
    const snapshots = checkArgs.filter((_, i) => checkArgs[i - 1] === '--snapshot');
    // The snapshot init writes holds the chosen servers only; a user's own snapshot is refreshed as a whole.
    const dumpArgs = [...configArgs, ...(writeSnapshot && subset ? selected.flatMap((n) => ['-s', n]) : [])];
    // Init's own `${VAR}`s, and those the checked servers' entries already had: unset in CI, the server got "".
    const variables = [
      ...entries.variables.map((v) => v.variable),
      ...selected.flatMap((name) => referencedVars[name] ?? []),
    ];
    plan = { install, args: checkArgs, snapshots, dumpArgs, writtenBy: VERSION, variables };
  }
  const baselineTokens = await writeFiles(ctx, plannedFiles, {
    configText,
    servers,
    maxGrowth: settings.maxGrowth,
    ...(plan ? { workflow: ciWorkflowYaml(plan) } : {}),
  });

  const result: InitResult = {
    files: plannedFiles,
    servers: selected,
    budget: { max: settings.max, share: settings.share },
    thresholds: { maxGrowth: settings.maxGrowth },
    checkCommand: ['mcp-smart', ...checkArgs, 'check'].map(shellQuote).join(' '),
    unavailable,
  };
  if (baselineTokens !== undefined) result.baselineTokens = baselineTokens;
  if (entries.variables.length > 0) result.variables = entries.variables;
  if (plan) {
    const secrets = ciSecrets(plan);
    result.workflow = {
      install: plan.install.kind,
      version: plan.install.version,
      checks: plan.snapshots.length > 0 ? 'snapshot' : 'live',
      ...(secrets.length > 0 ? { secrets } : {}),
    };
  }
  const snapshotAt = checkArgs.indexOf('--snapshot');
  return {
    result,
    exitCode: unavailable.length > 0 ? 3 : 0,
    ...(snapshotAt >= 0
      ? {
          snapshotFile: checkArgs[snapshotAt + 1],
          refreshWords: [
            ...configArgs,
            ...(writeSnapshot && subset ? selected.flatMap((n) => ['-s', n]) : []),
            'dump',
            '-o',
            checkArgs[snapshotAt + 1]!,
          ],
        }
      : {}),
    ...(plan ? { updateCommand: updateCommands(plan).join(' && ') } : {}),
  };
}

/**
 * The servers init can track: from the saved snapshots, or the enabled ones of the user's configs and flags. In a
 * project whose own servers a client has not approved (Claude Code's pending .mcp.json; every CI machine), init reads
 * the project's files by name (`configFiles`), once mcp-smart may start them, so that CI does the same.
 */
async function findServers(ctx: AppContext): Promise<{
  found: string[];
  definitions: ServerDefinition[];
  configFiles: string[];
  referencedVars: Record<string, string[]>;
}> {
  const { io, global } = ctx;
  let definitions: ServerDefinition[] = [];
  let read: ServerDefinition[] = [];
  let found: string[];
  let configFiles = global.config;
  let referencedVars: Record<string, string[]> = {};
  if (global.snapshot.length > 0) {
    found = (await loadSetup({ ...global, server: [] }, io, { fresh: true })).servers.map((s) => s.name);
  } else {
    const paths = resolvePaths(io, global.cache);
    let defs = await loadDefinitions(global, io, paths);
    const held = defaultSearch(global) ? clientHeldProjectServers(defs.servers) : [];
    if (held.length > 0 && defs.servers.every((d) => !d.enabled || isProjectFileServer(d))) {
      if (!(await projectApproved(defs, io, paths, { trustProject: global.trustProject }, held)))
        throw new SmartError('PROJECT_NOT_TRUSTED');
      configFiles = [...new Set(defs.servers.filter(isProjectFileServer).map((d) => projectPath(io.cwd, d.source)))];
      io.stderr(
        `note: ${held.map((d) => d.name).join(', ')} wait${held.length === 1 ? 's' : ''} for approval in ${clientsOf(held)}; init reads ${configFiles.join(', ')} by name (--config), as the workflow will.\n`,
      );
      defs = await loadDefinitions({ ...global, config: configFiles }, io, paths);
    }
    for (const w of defs.warnings) io.stderr(`warning: ${w}\n`);
    read = defs.servers;
    referencedVars = defs.referencedVars ?? {};
    definitions = defs.servers.filter((s) => s.enabled);
    found = definitions.map((s) => s.name);
  }
  if (found.length === 0) throw noServerError(read, { server: [], config: configFiles });
  return { found, definitions, configFiles, referencedVars };
}

const defaultSearch = (g: AppContext['global']): boolean => g.config.length === 0 && g.adhoc.length === 0 && !g.demo;

/** A file inside the project as a path relative to it (what CI checks out); anything else as given. */
function projectPath(cwd: string, file: string): string {
  const rel = relative(cwd, resolve(cwd, file));
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

const clientsOf = (defs: readonly ServerDefinition[]): string =>
  [
    ...new Set(
      defs.map((d) =>
        d.gate?.startsWith('claude') ? 'Claude Code' : d.gate?.startsWith('gemini') ? 'Gemini CLI' : 'Codex',
      ),
    ),
  ].join(', ');

/** Lists the selected servers afresh; fails when none answered, or when one failed and a baseline is wanted. */
async function reachServers(
  ctx: AppContext,
  selected: string[],
  baseline: boolean,
  config: string[],
): Promise<ServerSnapshot[]> {
  const { io, global } = ctx;
  const servers = (await loadSetup({ ...global, config, server: selected }, io, { fresh: true })).servers;
  const failed = servers.filter((s) => s.status === 'error');
  for (const u of failed) io.stderr(`warning: server ${u.name} could not be reached; it is not in the baseline\n`);
  if (servers.length > 0 && failed.length === servers.length)
    throw new SmartError('INIT_NOTHING_REACHED', { servers: failed.map((s) => s.name).join(', ') });
  // A first baseline without a server that failed would let it come back as "added" and pass: write nothing.
  if (baseline && failed.length > 0)
    throw new SmartError('BASELINE_FROM_FAILED', {
      file: 'the first baseline',
      servers: failed.map((s) => `${s.name} (${s.error ?? 'no reason given'})`).join('; '),
    });
  return servers;
}

/** Writes the planned files in order (config, baseline, snapshot, workflow), marking each written; the baseline's tokens. */
async function writeFiles(
  ctx: AppContext,
  planned: InitResult['files'],
  content: { configText: string; servers: ServerSnapshot[]; maxGrowth: string; workflow?: string },
): Promise<number | undefined> {
  const { io, global } = ctx;
  const write = async (kind: InitResult['files'][number]['kind'], text: string): Promise<void> => {
    const f = planned.find((p) => p.kind === kind);
    if (!f) return;
    await writeFileSafe(resolve(io.cwd, f.path), text);
    f.written = true;
  };
  await write('config', content.configText);
  let baselineTokens: number | undefined;
  if (planned.some((f) => f.kind === 'baseline')) {
    const counter = await counterFor(global.encoding);
    const measured = measureServers(content.servers, (tool, server) => countToolTokens(tool, counter, 'json', server));
    baselineTokens = measured.reduce((n, s) => n + s.tokens, 0);
    await write(
      'baseline',
      serializeBaseline(buildBaseline(measured, global.encoding, { maxGrowth: content.maxGrowth })),
    );
  }
  // The snapshot is committed: it leaves out `source`, a path into the user's home folder.
  if (planned.some((f) => f.kind === 'snapshot'))
    await write(
      'snapshot',
      JSON.stringify(
        buildSnapshot(
          content.servers.filter((s) => s.status === 'ok').map(({ source: _source, ...rest }) => rest),
          new Date().toISOString(),
        ),
        null,
        2,
      ) + '\n',
    );
  if (content.workflow !== undefined) await write('workflow', content.workflow);
  return baselineTokens;
}
