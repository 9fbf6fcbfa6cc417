/**
 * What a local (stdio) server runs, as files on disk: the resolved program, every argument that names a file (a
 * script), each file's size and modification time, and the version of the package a file belongs to. The tool-list
 * cache keys its entries by it (issue 36), so an edited or upgraded local server is listed again instead of being
 * answered from a list taken before the change. Remote servers have no identity here ('').
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve, sep } from 'node:path';
import type { ServerDefinition } from '../types.js';

/** Where a server is started from: the folder relative paths are taken from, and the PATH a bare command is found on. */
export interface ServerOrigin {
  cwd: string;
  path?: string;
}

/** Where this run starts local servers from: the tool-list cache checks their files against it (serverIdentity). */
export function serverOrigin(io: { cwd: string; env: Readonly<Record<string, string | undefined>> }): ServerOrigin {
  return { cwd: io.cwd, ...(io.env.PATH !== undefined ? { path: io.env.PATH } : {}) };
}

interface FileStamp {
  file: string;
  size: number;
  mtimeMs: number;
  version?: string;
}

/** A regular file's real path, size and mtime, or undefined when `file` is not one. */
function stampOf(file: string): FileStamp | undefined {
  try {
    const st = statSync(file);
    if (!st.isFile()) return undefined;
    const real = realpathSync(file);
    const version = packageVersion(real);
    return { file: real, size: st.size, mtimeMs: st.mtimeMs, ...(version ? { version } : {}) };
  } catch {
    return undefined; // not a file (a flag, a package name, a word): it is part of the definition's key already
  }
}

/** The version of the installed package `file` lies in (node_modules/<pkg>/…), read from its package.json. */
function packageVersion(file: string): string | undefined {
  const at = file.lastIndexOf(`${sep}node_modules${sep}`);
  if (at < 0) return undefined;
  const rest = file.slice(at + `${sep}node_modules${sep}`.length).split(sep);
  const depth = rest[0]?.startsWith('@') ? 2 : 1;
  if (rest.length <= depth) return undefined;
  const dir = join(file.slice(0, at), 'node_modules', ...rest.slice(0, depth));
  try {
    const doc = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof doc.version === 'string' ? doc.version : undefined;
  } catch {
    return undefined;
  }
}

/** The program a command names: a path as given (relative to `cwd`), or the first match on PATH. */
function resolveCommand(command: string, cwd: string, path: string | undefined): FileStamp | undefined {
  if (command.includes('/') || command.includes('\\')) return stampOf(resolve(cwd, command));
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const hit = stampOf(join(dir, command));
    if (hit) return hit;
  }
  return undefined;
}

/**
 * The identity of a stdio server's files, as one string ('' for remote servers). An argument counts when it names an
 * existing regular file, taken relative to the server's cwd (or `origin.cwd`); `--flag=<file>` counts too.
 */
export function serverIdentity(def: ServerDefinition, origin: ServerOrigin | undefined): string {
  if (def.transport !== 'stdio' || !def.command || !origin) return '';
  const cwd = def.cwd ? resolve(origin.cwd, def.cwd) : origin.cwd;
  const stamps: (FileStamp | null)[] = [resolveCommand(def.command, cwd, origin.path) ?? null];
  for (const arg of def.args ?? []) {
    if (arg.startsWith('-') && !arg.includes('=')) continue;
    const value = arg.startsWith('-') ? arg.slice(arg.indexOf('=') + 1) : arg;
    const stamp = value === '' ? undefined : stampOf(resolve(cwd, value));
    if (stamp) stamps.push(stamp);
  }
  // A script's siblings it imports are not followed: an edit there is seen when the tool-list cache expires.
  return JSON.stringify(stamps);
}
