// mcp-smart as a user gets it, packed and installed once per test run: `npm pack` of a copy of the source tree
// (scripts/pack.mjs, the `prepack` build runs in the copy) and `npm install --prefix` of that tarball. Every e2e test
// that needs the package (the journeys, the CI gate, package-install, the packed real-client case) shares the one
// tarball and the one install instead of paying for a pack each.
//
// The copy lives in the run's own temporary folder (test/helpers/global-setup.ts sets MCP_SMART_TESTS_TMP, removed
// after the run), in a folder keyed by a hash of the packed files' contents, so an edit during the run packs again.
// Test files run in parallel worker processes: the first to ask builds it under a lock folder (`mkdir` is atomic),
// the others wait for its `ready` marker; a failure is written down so the waiters fail with the same message.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { INSTALL_ARGS, npmEnv, packSourceTree, runProgram, type PackedTarball } from '../../scripts/pack.mjs';
import { REPO } from './paths.js';

export interface InstalledPackage {
  /** npm's pack report, the copied source tree (`src`) and the tarball's absolute path (`tarball`). */
  packed: PackedTarball;
  /** The `--prefix` the tarball is installed into (no other package.json above it). */
  prefix: string;
  /** `<prefix>/node_modules/.bin/mcp-smart`: the command a user runs. Do not write into the prefix. */
  bin: string;
}

/** How long a worker waits for another one's pack and install (a cold tsc + bundle + install on a busy machine). */
const WAIT_MS = 540_000;

/** sha256 over the path and contents of every file `npm pack` is given (tracked and new unignored files). */
export function treeKey(): string {
  const hash = createHash('sha256');
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: REPO, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean)
    .sort();
  for (const f of files) {
    hash.update(f + '\0');
    // A deleted but still tracked file is not packed either.
    if (existsSync(join(REPO, f))) hash.update(readFileSync(join(REPO, f)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function build(dir: string): Promise<void> {
  const env = npmEnv();
  const packed = await packSourceTree(dir, env);
  const prefix = join(dir, 'prefix');
  const install = await runProgram('npm', ['install', '--prefix', prefix, ...INSTALL_ARGS, packed.tarball], {
    cwd: dir,
    env,
  });
  if (install.code !== 0) throw new Error(`npm install ${packed.tarball} failed:\n${install.stderr}`);
  writeFileSync(join(dir, 'packed.json'), JSON.stringify(packed));
}

let mine: Promise<InstalledPackage> | undefined;

/** The packed and installed package of this tree: built by the first caller of the run, shared by all. */
export function installedPackage(): Promise<InstalledPackage> {
  mine ??= obtain();
  return mine;
}

async function obtain(): Promise<InstalledPackage> {
  const runTmp = process.env.MCP_SMART_TESTS_TMP;
  if (!runTmp)
    throw new Error('MCP_SMART_TESTS_TMP is not set: run the tests through vitest (test/helpers/global-setup.ts).');
  const root = join(runTmp, 'packed', treeKey());
  const ready = join(root, 'ready');
  const lock = `${root}.lock`;
  const failed = `${root}.failed`;
  mkdirSync(join(runTmp, 'packed'), { recursive: true });
  const started = Date.now();
  while (!existsSync(ready)) {
    if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
    let owner = false;
    try {
      mkdirSync(lock);
      owner = true;
    } catch {
      const pid = Number(readFileSafe(join(lock, 'pid')));
      // The builder died without a word (killed worker): take its place.
      if (pid > 0 && !alive(pid)) rmSync(lock, { recursive: true, force: true });
    }
    if (owner) {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      try {
        // What a builder that died left behind.
        rmSync(root, { recursive: true, force: true });
        mkdirSync(root, { recursive: true });
        await build(root);
        writeFileSync(ready, '');
      } catch (e) {
        writeFileSync(failed, `packing and installing mcp-smart failed: ${(e as Error).message}`);
        throw e;
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      break;
    }
    if (Date.now() - started > WAIT_MS)
      throw new Error(`waited ${WAIT_MS / 1000} s for another worker's pack of ${root}`);
    await sleep(500);
  }
  const packed = JSON.parse(readFileSync(join(root, 'packed.json'), 'utf8')) as PackedTarball;
  const prefix = join(root, 'prefix');
  return {
    packed,
    prefix,
    bin: join(prefix, 'node_modules', '.bin', 'mcp-smart'),
  };
}

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
