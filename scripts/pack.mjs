// The published package as a user gets it: `npm pack` of a copy of the source tree (the files a fresh clone has,
// no dist/; the `prepack` script builds it). Used by the package e2e tests and by scripts/readme-samples.mjs, so
// the README's tarball figures and the tests' installs come from the same tarball.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The environment without npm's npm_* variables: a nested npm must not inherit the settings of the outer one. */
export function npmEnv(env = process.env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^npm_/i.test(k)));
}

/**
 * npmEnv() with a home of its own under `root` (HOME, the XDG folders, TMPDIR; `root/home` and `root/tmp` are
 * created): what a fresh user's shell gives a command, so nothing reads or writes the real home.
 */
export function tempHomeEnv(root) {
  const home = join(root, 'home');
  for (const d of [home, join(root, 'tmp')]) mkdirSync(d, { recursive: true });
  return {
    ...npmEnv(),
    HOME: home,
    USERPROFILE: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    TMPDIR: join(root, 'tmp'),
    NO_COLOR: '1',
  };
}

/** Runs a program (no shell) and collects its output; kills it after `timeoutMs`. */
export function runProgram(cmd, args, { cwd, env, timeoutMs = 420_000 }) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d.toString()));
    child.stderr.on('data', (d) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** npm install flags for installs from the warm cache without noise. */
export const INSTALL_ARGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn'];

/**
 * Copies the tracked and new unignored files of the repo to `<dir>/src` (node_modules linked for the build tools
 * only), packs them into `dir` and returns npm's report plus the tarball's absolute path.
 */
export async function packSourceTree(dir, env = npmEnv()) {
  const src = join(dir, 'src');
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: REPO, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const f of files) {
    mkdirSync(dirname(join(src, f)), { recursive: true });
    cpSync(join(REPO, f), join(src, f));
  }
  symlinkSync(join(REPO, 'node_modules'), join(src, 'node_modules'), 'dir');
  const pack = await runProgram('npm', ['pack', '--json', '--pack-destination', dir], { cwd: src, env });
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  const packed = JSON.parse(pack.stdout)[0];
  return { ...packed, src, tarball: join(dir, packed.filename) };
}
