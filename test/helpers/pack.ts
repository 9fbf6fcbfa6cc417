// The published package on its own: pack a copy of the source tree (no dist/, as in a fresh clone) and install the
// tarball into a temporary prefix. Used by the package-install test and by the real-client test that starts the
// installed copy.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO } from './paths.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Packed {
  filename: string;
  files: { path: string }[];
  size: number;
  unpackedSize: number;
}

export const PACK_TIMEOUT_MS = 420_000;

/** Runs a program (no shell) and collects its output; kills it after `timeoutMs`. */
export function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string | undefined>; timeoutMs?: number },
): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? PACK_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** npm passes its own settings to scripts as npm_* variables; a nested npm must not inherit them. */
export function npmEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}

export const INSTALL_ARGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn'];

/**
 * Copies the files a fresh clone has (tracked plus new, unignored ones) to `<tmp>/src`, links node_modules for the
 * build tools only, and packs it into `tmp`. Returns npm's description of the tarball.
 */
export async function packSourceTree(tmp: string, env = npmEnv()): Promise<Packed> {
  const src = join(tmp, 'src');
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: REPO, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const f of files) {
    mkdirSync(dirname(join(src, f)), { recursive: true });
    cpSync(join(REPO, f), join(src, f));
  }
  symlinkSync(join(REPO, 'node_modules'), join(src, 'node_modules'), 'dir');
  const pack = await run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: src, env });
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  return (JSON.parse(pack.stdout) as Packed[])[0]!;
}

/** `npm install --prefix <prefix> <tarball>`; the prefix must not sit under a folder with a node_modules of its own. */
export async function installTarball(
  tarball: string,
  prefix: string,
  opts: { cwd: string; env?: Record<string, string | undefined>; extra?: string[] },
): Promise<Run> {
  return run('npm', ['install', '--prefix', prefix, ...(opts.extra ?? []), ...INSTALL_ARGS, tarball], {
    cwd: opts.cwd,
    env: opts.env ?? npmEnv(),
  });
}
