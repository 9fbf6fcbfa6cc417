// Issue 36.7: every command the README shows is run by a test or is a generated sample. The shell commands of the
// README's `sh`/`bash` blocks (each line without its comment, split at `&&`) must each be either in a generated
// sample (`$ …` lines, scripts/readme-samples.mjs) or in RUN_BY below, which names the test (or CI script) that
// runs it — that file must exist and hold the command, as written or as its argv words. The commands RUN_BY gives
// to this file are run here, as printed: the install lines into a temporary prefix with a temporary HOME (the
// tarball is the run's one pack, test/helpers/installed-package.ts), and the demo audit of the first line.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { npmEnv, runProgram, tempHomeEnv, type Env } from '../../scripts/pack.mjs';
import { docSamples } from '../../scripts/readme-samples.mjs';
import { proseLines } from '../helpers/doc-links.js';
import { installedPackage } from '../helpers/installed-package.js';
import { REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const TIMEOUT = 1_200_000;
const HERE = 'test/e2e/readme-commands.test.ts';
const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

/** The commands this file runs itself (below, as the README prints them). */
const DEMO_AUDIT = 'node bin/mcp-smart.js --demo audit';
const INSTALL_CLONE = 'npm install -g .';
/** As the README prints it; the version is the package's (checked below), so a new version changes both. */
const INSTALL_TARBALL = 'npm install -g ./mcp-smart-0.1.0.tgz';

/** Each README command no sample shows: the file that runs it, and how. */
const RUN_BY: { command: string; file: string; how: string }[] = [
  { command: 'npm ci', file: '.ci/run', how: 'CI installs the clone with it before every run' },
  { command: 'npm run build', file: 'package.json', how: 'the "test" script runs it; .ci/run runs npm test' },
  { command: 'npm test', file: '.ci/run', how: 'CI runs it' },
  { command: DEMO_AUDIT, file: HERE, how: 'run below in the clone, with a temporary HOME' },
  { command: INSTALL_CLONE, file: HERE, how: 'run below in the clone into a temporary prefix' },
  { command: 'npm pack', file: 'scripts/pack.mjs', how: "packs a copy of the clone: the run's tarball" },
  { command: INSTALL_TARBALL, file: HERE, how: 'run below beside a copy of that tarball, temporary prefix' },
  { command: 'mcp-smart audit', file: 'test/cli/audit-per-client.test.ts', how: "audit of a client's servers" },
  {
    command: 'mcp-smart adopt claude-code --apply',
    file: 'test/cli/adopt-switch.test.ts',
    how: "the switch in Claude Code's files",
  },
  {
    command: 'mcp-smart adopt claude-code --undo',
    file: 'test/cli/adopt-switch.test.ts',
    how: 'the way back, byte for byte',
  },
  { command: 'mcp-smart init --github', file: 'test/cli/unapproved-project.test.ts', how: 'the CI gate written' },
];

/** The shell commands of a Markdown text's sh/bash blocks: comments dropped, `a && b` as two. */
export function shellCommands(text: string): string[] {
  const out: string[] = [];
  let inShell = false;
  let fenced = false;
  const prose = new Set(proseLines(text).map((l) => l.line));
  text.split('\n').forEach((line, i) => {
    const fence = /^\s*```(\S*)/.exec(line);
    if (fence && !prose.has(i + 1)) {
      fenced = !fenced;
      inShell = fenced && /^(sh|bash|shell|console)$/.test(fence[1]!);
      return;
    }
    if (!inShell) return;
    const command = line.replace(/(^|\s)#.*$/, '').trim();
    if (command === '') return;
    for (const part of command.split('&&')) out.push(part.trim());
  });
  return out;
}

/** Whether `file` holds `command`: as written, or each of its words (past `mcp-smart`) as a quoted string. */
function holds(file: string, command: string): boolean {
  const text = readFileSync(join(REPO, file), 'utf8');
  if (text.includes(command)) return true;
  const words = command.split(/\s+/).filter((w, i) => !(i === 0 && w === 'mcp-smart'));
  return words.every((w) => text.includes(`'${w}'`) || text.includes(`"${w}"`));
}

const sampled = new Set(
  Object.values(docSamples())
    .flatMap((s) => s.text.split('\n'))
    .filter((l) => l.startsWith('$ '))
    .map((l) => l.slice(2).trim()),
);

describe('readme-commands: every command the README shows is run by a test or is a generated sample', () => {
  const commands = shellCommands(README);

  it('reads the commands of the sh blocks, the install lines among them', () => {
    expect(shellCommands('```sh\na && b   # c\n# d\n```\n```text\ne\n```\n```bash\nf\n```')).toEqual(['a', 'b', 'f']);
    expect(commands).toEqual(expect.arrayContaining([INSTALL_CLONE, 'npm pack', INSTALL_TARBALL, 'npm test']));
    expect(INSTALL_TARBALL).toBe(`npm install -g ./mcp-smart-${VERSION}.tgz`);
  });

  it('each is in a generated sample or named in RUN_BY, whose file exists and holds it', () => {
    const uncovered = commands.filter((c) => !sampled.has(c) && !RUN_BY.some((r) => r.command === c));
    expect(uncovered, 'add each to a sample or to RUN_BY with the test that runs it').toEqual([]);
    for (const r of RUN_BY) {
      expect(existsSync(join(REPO, r.file)), `${r.command}: ${r.file}`).toBe(true);
      expect(holds(r.file, r.command), `${r.file} does not hold ${r.command}`).toBe(true);
    }
  });

  it('RUN_BY lists only commands the README still shows', () => {
    expect(RUN_BY.map((r) => r.command).filter((c) => !commands.includes(c))).toEqual([]);
  });

  it('no install line would 404: nothing installs mcp-smart by name from the registry', () => {
    expect(commands.filter((c) => /\bnpm (install|i|exec)\b.*(?<![./-])\bmcp-smart(@\S*)?(\s|$)/.test(c))).toEqual([]);
    expect(commands.filter((c) => /\bnpx\b(?!.*--no\b).*\bmcp-smart\b/.test(c))).toEqual([]);
  });
});

describe('readme-commands: the install lines and the demo audit, run as printed', () => {
  let root = '';
  let npmRunEnv: Env = {};
  let appEnv: Env = {};
  const sh = (line: string, cwd: string, env: Env): ReturnType<typeof runProgram> =>
    runProgram('sh', ['-c', line], { cwd, env, timeoutMs: TIMEOUT });

  beforeAll(() => {
    root = tempDir('mcp-smart-readme-commands-');
    mkdirSync(join(root, 'work'), { recursive: true });
    const base = npmEnv();
    // npm's cache stays the machine's (no download when it holds the packages); everything else is temporary.
    const cache = execFileSync('npm', ['config', 'get', 'cache'], { env: base, encoding: 'utf8' }).trim();
    appEnv = tempHomeEnv(root);
    npmRunEnv = {
      ...appEnv,
      npm_config_cache: cache,
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
  });

  it(
    `${DEMO_AUDIT}: the first line's audit of the bundled demo servers`,
    async () => {
      const r = await sh(DEMO_AUDIT, REPO, appEnv);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Tool context: [\d,]+ tokens for \d+ tools on 4 servers/m);
    },
    TIMEOUT,
  );

  it(
    `${INSTALL_CLONE} in the clone: mcp-smart on the prefix's PATH runs this clone's build`,
    async () => {
      const prefix = join(root, 'prefix-clone');
      const r = await sh(INSTALL_CLONE, REPO, { ...npmRunEnv, npm_config_prefix: prefix });
      expect(r.code, r.stderr).toBe(0);
      const v = await runProgram(join(prefix, 'bin', 'mcp-smart'), ['--version'], { cwd: root, env: appEnv });
      expect(v.code, v.stderr).toBe(0);
      expect(v.stdout.trim()).toBe(VERSION);
    },
    TIMEOUT,
  );

  it(
    `npm pack, then ${INSTALL_TARBALL}: the tarball installs globally and audits the demo servers`,
    async () => {
      const { packed } = await installedPackage();
      expect(packed.filename).toBe(`mcp-smart-${VERSION}.tgz`);
      const work = join(root, 'work');
      copyFileSync(packed.tarball, join(work, packed.filename));
      const prefix = join(root, 'prefix-tarball');
      const r = await sh(INSTALL_TARBALL, work, { ...npmRunEnv, npm_config_prefix: prefix });
      expect(r.code, r.stderr).toBe(0);
      const bin = join(prefix, 'bin', 'mcp-smart');
      const v = await runProgram(bin, ['--version'], { cwd: work, env: appEnv });
      expect(v.stdout.trim()).toBe(VERSION);
      const audit = await runProgram(bin, ['--demo', 'audit'], { cwd: work, env: appEnv });
      expect(audit.code, audit.stderr).toBe(0);
      expect(audit.stdout).toMatch(/^Tool context: [\d,]+ tokens for \d+ tools on 4 servers/m);
    },
    TIMEOUT,
  );
});
