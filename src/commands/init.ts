/** `init`: writes mcp-smart.config.json, a first baseline and optionally a GitHub Actions workflow. */
import type * as InquirerPrompts from '@inquirer/prompts';
import { access } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { counterFor } from '../app/counter.js';
import { writeFileAtomic } from '../atomic-write.js';
import { DEFAULT_BASELINE } from '../core/budget/index.js';
import {
  buildBaseline,
  formatGrowthLimit,
  measureServers,
  parseGrowthLimit,
  serializeBaseline,
} from '../core/budget/index.js';
import { CONFIG_FILE, INIT_SNAPSHOT_FILE, WORKFLOW_FILE, configEntry, type InitResult } from '../core/init.js';
import {
  chooseCiInstall,
  ciWorkflowYaml,
  shellQuote,
  updateCommands,
  type CiWorkflowPlan,
} from '../core/ci-workflow.js';
import { buildSnapshot } from '../core/snapshot.js';
import { countToolTokens } from '../core/tokens/index.js';
import { SmartError } from '../errors.js';
import { readJsonFile } from '../read-file.js';
import { renderInit } from '../reporters/init.js';
import type { ServerDefinition, ServerSnapshot } from '../types.js';
import { VERSION } from '../version.js';
import type { CommandContext, CommandOutcome } from '../app/context.js';
import { loadDefinitions, loadSetup } from '../app/setup.js';
import { optionalString, parseFloatFlag, parseIntFlag } from '../app/flags.js';

interface Answers {
  servers: string[];
  max: number;
  share: number;
  maxGrowth: string;
  github: boolean;
}

type Prompts = typeof InquirerPrompts;

export interface InitFlags {
  yes?: boolean;
  force?: boolean;
  /** False with --no-baseline. */
  baseline?: boolean;
  maxGrowth?: string;
  max?: string;
  share?: string;
  github?: boolean;
  /** With --github: check a committed snapshot in CI even for project servers. */
  ciSnapshot?: boolean;
  servers?: string;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new SmartError('FILE_UNREADABLE', { file, reason: (e as Error).message }, { cause: e });
  }
}

async function ask(prompts: Prompts, found: string[], a: Answers): Promise<Answers> {
  const servers =
    found.length > 1
      ? await prompts.checkbox({
          message: 'Servers to track',
          choices: found.map((n) => ({ name: n, value: n, checked: a.servers.includes(n) })),
          required: true,
        })
      : a.servers;
  const max = Number(
    await prompts.input({
      message: 'Context window (tokens)',
      default: String(a.max),
      validate: (v) => (/^\d+$/.test(v.trim()) && Number(v) > 0 ? true : 'a whole number of tokens'),
    }),
  );
  const share = Number(
    await prompts.input({
      message: 'Share of the window the tool context may use',
      default: String(a.share),
      validate: (v) => (Number(v) > 0 && Number(v) <= 1 ? true : 'a fraction between 0 and 1'),
    }),
  );
  const maxGrowth = await prompts.input({
    message: 'Allowed growth before check fails ("5%" or tokens)',
    default: a.maxGrowth,
    validate: (v) => (parseGrowthLimit(v) ? true : 'e.g. 5% or 500'),
  });
  const github = await prompts.confirm({ message: `Write ${WORKFLOW_FILE}?`, default: a.github });
  return { servers, max, share, maxGrowth: formatGrowthLimit(parseGrowthLimit(maxGrowth)!), github };
}

export async function runInitCommand(
  ctx: CommandContext,
  _args: string[],
  opts: InitFlags,
): Promise<CommandOutcome<InitResult>> {
  const { io, global } = ctx;
  const interactive = io.stdinIsTTY && opts.yes !== true && global.format !== 'json';
  const force = opts.force === true;
  const writeBaselineFile = opts.baseline !== false;
  const growthText = optionalString(opts.maxGrowth) ?? '5%';
  const growth = parseGrowthLimit(growthText);
  if (!growth)
    throw new SmartError('BAD_FLAG', {
      flag: '--max-growth',
      value: growthText,
      hint: 'Expected a percentage like "5%" or a number of tokens like "500".',
    });
  // budget.share 0 is invalid in mcp-smart.config.json, so it must not be written there.
  const parseShare = (v: unknown): number => {
    const share = parseFloatFlag('--share', v, { min: 0, max: 1 });
    if (share <= 0)
      throw new SmartError('BAD_FLAG', {
        flag: '--share',
        value: String(v),
        hint: 'Expected a fraction above 0 and at most 1 (e.g. 0.1).',
      });
    return share;
  };
  let answers: Answers = {
    servers: [],
    max: parseIntFlag('--max', opts.max ?? '200000', { min: 1 }),
    share: parseShare(opts.share ?? '0.1'),
    maxGrowth: formatGrowthLimit(growth),
    github: opts.github === true,
  };

  // Where the servers come from: saved snapshots, or the user's configs and ad-hoc flags.
  const fromSnapshot = global.snapshot.length > 0;
  let definitions: ServerDefinition[] = [];
  let found: string[];
  if (fromSnapshot) {
    found = (await loadSetup({ ...global, server: [] }, io, { fresh: true })).servers.map((s) => s.name);
  } else {
    const defs = await loadDefinitions(global, io);
    for (const w of defs.warnings) io.stderr(`warning: ${w}\n`);
    definitions = defs.servers.filter((s) => s.enabled);
    found = definitions.map((s) => s.name);
  }
  if (found.length === 0) throw new SmartError('NO_SERVERS');
  const wanted =
    optionalString(opts.servers)
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? (global.server.length > 0 ? global.server : found);
  for (const name of wanted) {
    if (!found.includes(name)) throw new SmartError('UNKNOWN_SERVER', { name, known: [...found].sort().join(', ') });
  }
  answers.servers = wanted;
  const prompts: Prompts | undefined = interactive ? await import('@inquirer/prompts') : undefined;
  if (prompts) answers = await ask(prompts, found, answers);

  const selected = answers.servers;
  const subset = selected.length < found.length;
  const adhoc = definitions.filter((d) => selected.includes(d.name) && d.scope === 'adhoc');
  const userScoped = definitions.some((d) => selected.includes(d.name) && d.scope !== 'project' && d.scope !== 'adhoc');
  // A snapshot inside the project is referenced relative to it (CI checks out there); anything else as given.
  const snapshotRef = (f: string): string => {
    const rel = relative(io.cwd, resolve(io.cwd, f));
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? f : rel;
  };
  const snapshotArgs = fromSnapshot ? global.snapshot.flatMap((f) => ['--snapshot', snapshotRef(f)]) : [];
  // CI has no user-level configs: servers found there are checked from a committed snapshot. Project servers
  // would be started on the CI runner: say so, and offer the snapshot there too (--ci-snapshot).
  let ciSnapshot = opts.ciSnapshot === true;
  const liveInCi = answers.github && !fromSnapshot && !userScoped;
  if (liveInCi && !ciSnapshot && prompts)
    ciSnapshot = await prompts.confirm({
      message: `The workflow would start ${selected.join(', ')} on the CI runner. Check a committed snapshot (${INIT_SNAPSHOT_FILE}) instead?`,
      default: true,
    });
  const writeSnapshot = answers.github && !fromSnapshot && (userScoped || ciSnapshot);
  const checkArgs = [
    ...(writeSnapshot ? ['--snapshot', INIT_SNAPSHOT_FILE] : snapshotArgs),
    ...(subset ? selected.flatMap((s) => ['-s', s]) : []),
  ];

  const plannedFiles: InitResult['files'] = [{ path: CONFIG_FILE, kind: 'config', written: false }];
  if (writeBaselineFile) plannedFiles.push({ path: DEFAULT_BASELINE, kind: 'baseline', written: false });
  if (writeSnapshot) plannedFiles.push({ path: INIT_SNAPSHOT_FILE, kind: 'snapshot', written: false });
  if (answers.github) plannedFiles.push({ path: WORKFLOW_FILE, kind: 'workflow', written: false });
  // Decide about every existing file before writing anything, so a refusal leaves the folder untouched.
  for (const f of plannedFiles) {
    if (!(await exists(resolve(io.cwd, f.path))) || force) continue;
    if (prompts && (await prompts.confirm({ message: `${f.path} exists. Overwrite it?`, default: false }))) continue;
    throw new SmartError('FILE_EXISTS', { file: f.path });
  }

  const config: Record<string, unknown> = {
    budget: { max: answers.max, share: answers.share },
    thresholds: { maxGrowth: answers.maxGrowth },
    baseline: DEFAULT_BASELINE,
  };
  if (adhoc.length > 0) config.servers = Object.fromEntries(adhoc.map((d) => [d.name, configEntry(d)]));

  let servers: ServerSnapshot[] = [];
  let unavailable: string[] = [];
  let baselineTokens: number | undefined;
  if (writeBaselineFile || writeSnapshot) {
    servers = (await loadSetup({ ...global, server: selected }, io, { fresh: true })).servers;
    unavailable = servers.filter((s) => s.status === 'error').map((s) => s.name);
    for (const u of unavailable) io.stderr(`warning: server ${u} could not be reached; it is not in the baseline\n`);
    if (servers.length > 0 && unavailable.length === servers.length)
      throw new SmartError('INIT_NOTHING_REACHED', { servers: unavailable.join(', ') });
    // A first baseline without a server that failed would let it come back as "added" and pass: write nothing.
    if (writeBaselineFile && unavailable.length > 0)
      throw new SmartError('BASELINE_FROM_FAILED', {
        file: 'the first baseline',
        servers: servers
          .filter((s) => s.status === 'error')
          .map((s) => `${s.name} (${s.error ?? 'no reason given'})`)
          .join('; '),
      });
  }
  let plan: CiWorkflowPlan | undefined;
  if (answers.github) {
    const install = chooseCiInstall(
      await readJsonFile('package.json', io.cwd),
      await readJsonFile('package-lock.json', io.cwd),
      VERSION,
    );
    const snapshots = checkArgs.filter((_, i) => checkArgs[i - 1] === '--snapshot');
    // The snapshot init writes holds the chosen servers only; a user's own snapshot is refreshed as a whole.
    const dumpArgs = writeSnapshot && subset ? selected.flatMap((n) => ['-s', n]) : [];
    plan = { install, args: checkArgs, snapshots, dumpArgs, writtenBy: VERSION };
  }
  const write = async (kind: InitResult['files'][number]['kind'], text: string): Promise<void> => {
    const f = plannedFiles.find((p) => p.kind === kind);
    if (!f) return;
    await writeFileAtomic(resolve(io.cwd, f.path), text);
    f.written = true;
  };
  await write('config', JSON.stringify(config, null, 2) + '\n');
  if (writeBaselineFile) {
    const counter = await counterFor(global.encoding);
    const measured = measureServers(servers, (tool, server) => countToolTokens(tool, counter, 'json', server));
    baselineTokens = measured.reduce((n, s) => n + s.tokens, 0);
    await write(
      'baseline',
      serializeBaseline(buildBaseline(measured, global.encoding, { maxGrowth: answers.maxGrowth })),
    );
  }
  // The snapshot is committed: it leaves out `source`, a path into the user's home folder.
  if (writeSnapshot)
    await write(
      'snapshot',
      JSON.stringify(
        buildSnapshot(
          servers.filter((s) => s.status === 'ok').map(({ source: _source, ...rest }) => rest),
          new Date().toISOString(),
        ),
        null,
        2,
      ) + '\n',
    );
  if (plan) await write('workflow', ciWorkflowYaml(plan));

  const checkCommand = ['mcp-smart', ...checkArgs, 'check'].map(shellQuote).join(' ');
  const result: InitResult = {
    files: plannedFiles,
    servers: selected,
    budget: { max: answers.max, share: answers.share },
    thresholds: { maxGrowth: answers.maxGrowth },
    checkCommand,
    unavailable,
  };
  if (baselineTokens !== undefined) result.baselineTokens = baselineTokens;
  if (plan)
    result.workflow = {
      install: plan.install.kind,
      version: plan.install.version,
      checks: plan.snapshots.length > 0 ? 'snapshot' : 'live',
    };

  const snapshotAt = checkArgs.indexOf('--snapshot');
  io.stdout(
    renderInit(result, {
      format: global.format,
      encoding: global.encoding,
      ...(snapshotAt >= 0 ? { snapshotFile: checkArgs[snapshotAt + 1] } : {}),
      ...(plan ? { updateCommand: updateCommands(plan).join(' && ') } : {}),
    }),
  );
  return { result, exitCode: unavailable.length > 0 ? 3 : 0 };
}
