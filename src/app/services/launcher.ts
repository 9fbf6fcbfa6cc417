/**
 * How a client starts *this* mcp-smart: the command line `serve --print-config` prints. The running copy is named by
 * absolute paths (node and bin/mcp-smart.js), unless it was installed from the npm registry under its own name and
 * version — then `npx -y mcp-smart@<version>` fetches the same thing. Every option that defines the setup is
 * carried over, with absolute paths, so the snippet starts the same servers from whatever folder the client uses.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { basename, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GlobalOptions } from './context.js';
import { SmartError } from '../../process/errors.js';
import { VERSION } from '../../process/version.js';
import type { ServerDefinition } from '../../core/types.js';

export const PACKAGE_NAME = 'mcp-smart';

export interface Launch {
  command: string;
  args: string[];
  /** `path`: this copy by its absolute path; `registry`: the same name and version fetched by npx. */
  via: 'path' | 'registry';
}

/** The package folder of the running code (dist/app/services/ or src/app/services/ → three levels up). */
export function packageRoot(): string {
  return fileURLToPath(new URL('../../..', import.meta.url));
}

/**
 * True when `pkgDir` is mcp-smart as npm installed it from a registry: it sits at `…/node_modules/mcp-smart` and the
 * install's hidden lockfile (`<prefix>/node_modules/.package-lock.json`) records that exact version resolved from a
 * registry tarball URL (`…/mcp-smart/-/mcp-smart-<version>.tgz`). A linked, packed-tarball or git checkout install
 * records `file:`/`git+` or no entry at all, so it is started by path.
 */
export function installedFromRegistry(
  pkgDir: string,
  version: string,
  readText: (file: string) => string = (f) => readFileSync(f, 'utf8'),
): boolean {
  const parts = pkgDir.replace(/[\\/]+$/, '').split(/[\\/]/);
  if (parts[parts.length - 1] !== PACKAGE_NAME || parts[parts.length - 2] !== 'node_modules') return false;
  // The hidden lockfile sits in the outermost node_modules of the install (nested dependencies are keyed below it).
  const first = parts.indexOf('node_modules');
  const prefix = parts.slice(0, first).join(sep) || sep;
  const key = parts.slice(first).join('/');
  let entry: { version?: unknown; resolved?: unknown } | undefined;
  try {
    const lock = JSON.parse(readText(join(prefix, 'node_modules', '.package-lock.json'))) as {
      packages?: Record<string, { version?: unknown; resolved?: unknown }>;
    };
    entry = lock.packages?.[key];
  } catch {
    return false;
  }
  if (!entry || entry.version !== version || typeof entry.resolved !== 'string') return false;
  let url: URL;
  try {
    url = new URL(entry.resolved);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.pathname.endsWith(`/${PACKAGE_NAME}/-/${PACKAGE_NAME}-${version}.tgz`)
  );
}

/** The words before `serve`: every global option that decides which servers serve starts and how. */
export function setupArgs(global: GlobalOptions, cwd: string): string[] {
  const abs = (file: string): string => resolve(cwd, file);
  const args: string[] = [];
  if (global.demo) args.push('--demo');
  for (const file of global.config) args.push('--config', abs(file));
  for (const file of global.snapshot) args.push('--snapshot', abs(file));
  for (const server of global.adhoc) {
    if (server.kind === 'url') refuseCredentials(server.value);
    args.push(server.kind === 'url' ? '--url' : '--stdio', server.value);
    if (server.name !== undefined) args.push('--name', server.name);
  }
  for (const name of global.server) args.push('--server', name);
  if (global.client) args.push('--client', global.client);
  if (global.encoding !== 'o200k_base') args.push('--encoding', global.encoding);
  if (global.timeoutMs !== 30_000) args.push('--timeout', String(global.timeoutMs));
  if (!global.cache) args.push('--no-cache');
  return args;
}

/** A printed snippet is pasted into files and terminals: a URL carrying credentials would leak them there. */
function refuseCredentials(value: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    return;
  }
  if (url.username || url.password || url.search !== '') {
    throw new SmartError('BAD_FLAG', {
      flag: '--url',
      value: `${url.origin}${url.pathname}`,
      hint: '--print-config does not print a URL with credentials or query values. Put the server in mcp-smart.config.json with its secret as a ${VAR} header, and pass -c.',
    });
  }
}

/** The command line that starts this copy of mcp-smart with `args` (its realpath, so a moved symlink is no issue). */
export function launchThis(args: string[], opts: { root?: string; nodePath?: string; version?: string } = {}): Launch {
  const root = opts.root ?? packageRoot();
  const version = opts.version ?? VERSION;
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    /* keep the path as given */
  }
  if (installedFromRegistry(real, version)) {
    return { command: 'npx', args: ['-y', `${PACKAGE_NAME}@${version}`, ...args], via: 'registry' };
  }
  const bin = join(real, 'bin', 'mcp-smart.js');
  return { command: opts.nodePath ?? process.execPath, args: [bin, ...args], via: 'path' };
}

/** True when a stdio definition starts mcp-smart's own `serve` (directly, via node, or through npx). */
export function isSelfServe(def: ServerDefinition): boolean {
  if (def.transport !== 'stdio' || !def.command) return false;
  const words = [def.command, ...(def.args ?? [])];
  const at = words.findIndex((w) => /^mcp-smart(\.js|\.cmd|\.mjs)?$|^mcp-smart@/.test(basename(w)));
  return at >= 0 && words.slice(at + 1).includes('serve');
}
