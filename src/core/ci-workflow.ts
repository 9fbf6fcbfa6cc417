/** The GitHub Actions workflow `init --github` writes: it runs exactly the mcp-smart it was generated with. */

/**
 * How CI gets mcp-smart. `lockfile`: the project lists mcp-smart in package.json and pins it in
 * package-lock.json, so `npm ci` installs that version and `npx --no -- mcp-smart` runs it (never a download).
 * `pinned`: `npx --yes -- mcp-smart@<version>`, the exact version that wrote the workflow.
 */
export type CiInstall = { kind: 'lockfile'; version: string } | { kind: 'pinned'; version: string };

export interface CiWorkflowPlan {
  install: CiInstall;
  /** Global options before `check` (`--snapshot <file>` or `--config <file>`, `-s <server>`). */
  args: string[];
  /** The committed snapshots the check reads; none: the check starts the servers on the runner. */
  snapshots: string[];
  /**
   * Global options for refreshing the one snapshot with `dump -o`: `--config` for the files the servers come from (a
   * project no client approved is read by name), `-s` for the servers init put in it.
   */
  dumpArgs: string[];
  /** The mcp-smart version that wrote the file (named in its header). */
  writtenBy: string;
  /**
   * Variables the checked servers read: the ones init's config refers to in place of a secret (its ad-hoc servers)
   * and the ones the project's config entries refer to (`${VAR}`, `${env:VAR}`, …). A live check passes each in.
   */
  variables?: string[];
}

export const WORKFLOW_PATH = '.github/workflows/mcp-smart.yml';

/** Quotes a word for a POSIX shell only when it needs it. */
export function shellQuote(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const PACKAGE = 'mcp-smart';

/** Line breaks as YAML 1.1 and 1.2 parsers count them (NEL and the Unicode separators only in 1.1). */
const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/g;
/** A line break as the escape both YAML's double quotes and a reader understand (JSON leaves U+2028 as it is). */
const escapeBreak = (c: string): string =>
  c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
/** A plain YAML scalar that reads back as this exact string: no indicator first, no `: `, ` #` or line break. */
const PLAIN_SAFE = /^[A-Za-z_/][\w./@%+=,'-]*(?:[ :][\w./@%+=,'-]+)*$/;
const YAML_WORDS = /^(?:true|false|yes|no|on|off|y|n|null)$/i;

/**
 * A YAML scalar that reads back as exactly `s`: plain when it is plainly a string, else double-quoted (JSON's escapes
 * are YAML's). A shell word quoted for the shell can still hold `: ` or ` #`, which a plain scalar reads as a mapping
 * or a comment.
 */
export function yamlScalar(s: string): string {
  if (PLAIN_SAFE.test(s) && !YAML_WORDS.test(s)) return s;
  return JSON.stringify(s).replace(LINE_BREAK, escapeBreak);
}

/** Text for a `#` comment line: a line break in a name or path shown escaped, so it cannot end the comment. */
const commentText = (s: string): string => s.replace(LINE_BREAK, escapeBreak);

/**
 * The npx words that run the planned mcp-smart: local from the lockfile, or the pinned version. The `--` ends
 * npx's own options: without it npm takes mcp-smart's (`--snapshot`, `--json`, …) as npm config and drops them.
 */
function npxWords(install: CiInstall): string[] {
  return install.kind === 'lockfile'
    ? ['npx', '--no', '--', PACKAGE]
    : ['npx', '--yes', '--', `${PACKAGE}@${install.version}`];
}

/** A command line that runs mcp-smart the way the plan does (the same words locally and in CI). */
export function ciCommand(plan: CiWorkflowPlan, words: string[]): string {
  return [...npxWords(plan.install), ...words].map(shellQuote).join(' ');
}

/** The commands to run after an intended change, in order: refresh the snapshot (if any), update the baseline. */
export function updateCommands(plan: CiWorkflowPlan): string[] {
  const out: string[] = [];
  // One snapshot is refreshed with dump; several were made by the user, who knows how.
  if (plan.snapshots.length === 1) out.push(ciCommand(plan, [...plan.dumpArgs, 'dump', '-o', plan.snapshots[0]!]));
  out.push(ciCommand(plan, [...plan.args, 'check', '--update']));
  return out;
}

/**
 * The repository secret a variable's value comes from in CI: its own name, except that GitHub refuses secrets named
 * GITHUB_* (and `secrets.GITHUB_TOKEN` is the job's own token, which would reach the server without a word).
 */
export function ciSecretName(variable: string): string {
  return /^GITHUB_/i.test(variable) ? `MCP_${variable}` : variable;
}

/**
 * Variables the runner sets itself (GitHub's default environment, and the shell's own): a config's `${HOME}` or
 * `${GITHUB_WORKSPACE}` reads the runner's value, and a step `env:` from an unset secret would blank it (GitHub does
 * not let a step override its GITHUB_* and RUNNER_* defaults at all).
 */
const RUNNER_SET =
  /^(?:CI|HOME|PATH|PWD|USER|SHELL|LANG|TMPDIR|RUNNER_\w+|GITHUB_(?:ACTION\w*|ACTOR\w*|API_URL|BASE_REF|ENV|EVENT_\w+|GRAPHQL_URL|HEAD_REF|JOB|OUTPUT|PATH|REF\w*|REPOSITORY\w*|RETENTION_DAYS|RUN_\w+|SERVER_URL|SHA|STEP_SUMMARY|TRIGGERING_ACTOR|WORKFLOW\w*|WORKSPACE))$/;

/**
 * The variables a check that starts the servers passes from the repository's secrets, with the secret of each: the
 * ones init wrote in place of a secret and the ones the checked servers' own config entries refer to, except those
 * the runner sets itself.
 */
export function ciSecrets(plan: CiWorkflowPlan): { variable: string; secret: string }[] {
  if (plan.snapshots.length > 0) return [];
  return (
    [...new Set(plan.variables ?? [])]
      // Claude Code reads `${env:X}` as a variable named "env:X", which no environment can hold.
      .filter((v) => /^[A-Za-z_]\w*$/.test(v) && !RUNNER_SET.test(v))
      .sort()
      .map((variable) => ({ variable, secret: ciSecretName(variable) }))
  );
}

/** The workflow file: checkout, Node 20 with the npm cache, the pinned mcp-smart, `check --format github`. */
export function ciWorkflowYaml(plan: CiWorkflowPlan): string {
  const { install } = plan;
  const commit = commentText([...plan.snapshots, 'mcp-smart.lock.json'].join(' '));
  const how =
    install.kind === 'lockfile'
      ? `# It runs the mcp-smart of this project's package-lock.json (${commentText(install.version)} when written): \`npm ci\` installs it\n# and \`npx --no -- mcp-smart\` refuses to download anything else. Upgrade with \`npm install -D mcp-smart@<version>\`.`
      : `# It runs mcp-smart ${install.version} exactly (\`npx --yes -- mcp-smart@${install.version}\`), the version that wrote it; change the\n# version here (or run a newer \`mcp-smart init --github --force\`) to upgrade.`;
  const named = plan.args.filter((_, i) => plan.args[i - 1] === '--config');
  const what =
    plan.snapshots.length > 0
      ? `# The check reads the committed snapshot ${commentText(plan.snapshots.join(', '))}: no MCP server is started on the runner.`
      : named.length > 0
        ? `# The check starts the MCP servers of ${commentText(named.join(', '))} on the runner: named with --config, they are read\n# whether or not a client (Claude Code's .mcp.json approval) approved them, as on every CI machine.`
        : "# The check starts the MCP servers of mcp-smart.config.json / the project config files on the runner\n# (--trust-project approves this repository's own servers for the run: nobody is there to answer the prompt).";
  const cache =
    install.kind === 'lockfile'
      ? '          cache: npm\n'
      : `          cache: npm\n          # no package-lock.json is needed: the cache key follows this file, which pins the version\n          cache-dependency-path: ${WORKFLOW_PATH}\n`;
  const npmCi = install.kind === 'lockfile' ? '      - run: npm ci\n' : '';
  const secrets = ciSecrets(plan);
  const secretNote =
    secrets.length > 0
      ? `\n# The servers' secrets come from this repository's Actions secrets (Settings > Secrets and variables > Actions):\n${secrets
          .map((s) => `#   ${s.secret}${s.secret === s.variable ? '' : ` (passed as ${s.variable})`}\n`)
          .join('')
          .trimEnd()}`
      : '';
  const env =
    secrets.length > 0
      ? `        env:\n${secrets.map((s) => `          ${s.variable}: \${{ secrets.${s.secret} }}\n`).join('')}`
      : '';
  const update = updateCommands(plan)
    .map((c) => `#   ${commentText(c)}\n`)
    .join('');
  return `# Written by mcp-smart ${plan.writtenBy} (\`mcp-smart init --github\`). Fails the build when the MCP tool context grows
# beyond the thresholds in mcp-smart.config.json / mcp-smart.lock.json, with annotations and a job summary.
${how}
${what}${secretNote}
# After an intended change, run locally and commit ${commit}:
${update}name: mcp-smart

on:
  pull_request:
  push:
    branches: [main]

permissions:
  contents: read

jobs:
  tool-context:
    runs-on: ubuntu-latest
    timeout-minutes: 10
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
${cache}${npmCi}      - name: Check MCP tool-context size against the baseline
${env}        run: ${yamlScalar(ciCommand(plan, [...plan.args, ...(plan.snapshots.length > 0 || named.length > 0 ? [] : ['--trust-project']), 'check', '--format', 'github']))}
`;
}

interface PackageManifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface PackageLock {
  packages?: Record<string, { version?: string }>;
}

/**
 * Lockfile mode when the project's package.json lists mcp-smart and its package-lock.json pins it;
 * otherwise the running version, pinned. Inputs are the parsed files, or undefined when absent.
 */
export function chooseCiInstall(manifest: unknown, lock: unknown, runningVersion: string): CiInstall {
  const m = (manifest ?? {}) as PackageManifest;
  const listed = typeof m === 'object' && (m.dependencies?.[PACKAGE] ?? m.devDependencies?.[PACKAGE]) !== undefined;
  const locked = (lock as PackageLock | undefined)?.packages?.[`node_modules/${PACKAGE}`]?.version;
  if (listed && typeof locked === 'string') return { kind: 'lockfile', version: locked };
  return { kind: 'pinned', version: runningVersion };
}
