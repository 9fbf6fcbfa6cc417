/**
 * `adopt <client> --apply` and `--undo`: the switch written into the client's own files, and taken back. Before a
 * file is changed its bytes are kept (user data folder, mode 0600: they may hold the client's secrets), with the
 * edits made. The way back reverses only those edits: a file nobody touched since comes back byte for byte; a file
 * changed since (the user added a server, the client wrote its own state) keeps those changes and says so. Each file
 * is changed under its lock and only if it still holds what was read (another writer in between: refused).
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { userDataDir } from '../../core/paths.js';
import { parseConfigText } from '../../core/config/parse.js';
import {
  applyJsonEdits,
  applyTomlEdits,
  reverseJsonEdits,
  reverseTomlEdits,
  sameJson,
  type SwitchEdit,
} from '../../core/adopt/switch-edit.js';
import type { FilePlan } from '../../core/adopt/switch-plan.js';
import { SmartError } from '../../process/errors.js';
import { withFileLock } from '../../process/file-lock.js';
import { READ_AS, readFileBytes } from '../../process/read-file.js';
import { resolveWriteTarget } from '../../process/link-target.js';
import { replaceRefusal, writeFileSafe } from '../../process/safe-write.js';
import type { ClientId } from '../../core/types.js';
import type { AppContext } from '../services/context.js';
import { resolvePaths } from '../services/paths.js';

export const STATE_FORMAT = 'mcp-smart/adopt-switch@1';

/** What --apply changed, kept for --undo. */
export interface SwitchState {
  format: typeof STATE_FORMAT;
  client: ClientId;
  project: string;
  appliedAt: string;
  files: {
    file: string;
    syntax: FilePlan['syntax'];
    existed: boolean;
    before: string;
    edits: SwitchEdit[];
    /** A file that did not exist reached through a symbolic link (a dangling dotfile link): the file created there. */
    created?: string;
  }[];
  /** mcp-smart.config.json as it was before adopt replaced it (base64), when it existed. */
  smartConfig?: { file: string; before?: string; written: string };
}

/** One file's outcome of --undo. */
export interface UndoFile {
  file: string;
  /** `restored` byte for byte; `restored-kept` the switch reversed, later changes kept; `missing`; `unchanged`. */
  result: 'restored' | 'restored-kept' | 'missing' | 'unchanged' | 'removed';
  /** Keys changed since the switch that were left as they are now. */
  changedSince?: string[];
  /** `removed` through a symbolic link: the file removed where it points (the link itself is kept). */
  target?: string;
}

/** Where the state of this project's switch for this client is kept. */
export function statePath(ctx: AppContext, client: ClientId): string {
  const paths = resolvePaths(ctx.io, false);
  const id = createHash('sha256').update(`${ctx.io.cwd}\0${client}`).digest('hex').slice(0, 24);
  return join(userDataDir(paths.pathEnv), 'adopt', `${client}-${id}.json`);
}

export function readState(ctx: AppContext, client: ClientId): SwitchState | undefined {
  const file = statePath(ctx, client);
  const bytes = readFileBytes(file, '/', READ_AS.config);
  if (bytes === undefined) return undefined;
  const doc = JSON.parse(bytes.toString('utf8')) as SwitchState;
  if (doc.format !== STATE_FORMAT)
    throw new SmartError('CONFIG_INVALID', { file, key: 'format', reason: `expected "${String(STATE_FORMAT)}".` });
  return doc;
}

const parse = (file: string, text: string): unknown => (text.trim() === '' ? {} : parseConfigText(file, text));

/** The text `plan` makes of `text`. */
export function switchedText(plan: FilePlan, text: string): string {
  if (plan.syntax === 'toml') return applyTomlEdits(text, plan.edits);
  return applyJsonEdits(text, parse(plan.file, text), plan.edits);
}

/** Mode of an existing file, so a written one keeps it (a client's file with secrets stays 0600). */
async function modeOf(file: string): Promise<number | undefined> {
  return stat(file).then(
    (s) => s.mode & 0o777,
    () => undefined,
  );
}

async function writeKeepingMode(file: string, data: Buffer | string): Promise<void> {
  const mode = await modeOf(file);
  await writeFileSafe(file, typeof data === 'string' ? Buffer.from(data) : data, {
    verbatim: true,
    ...(mode !== undefined ? { mode } : { mode: 0o600 }),
  });
}

/** The folder `dir` or its nearest ancestor that exists: where a file (or the folders to it) would be created. */
async function existingFolder(dir: string): Promise<string> {
  for (let at = dir; ; at = dirname(at)) {
    const found = await stat(at).then(
      () => true,
      () => false,
    );
    if (found || dirname(at) === at) return at;
  }
}

/**
 * Why --apply cannot write a file of the switch — the file read-only or not a regular file, its folder (where its
 * lock and the new copy go) or the folder a symbolic link points into not writable — checked before anything is
 * written, so a refusal leaves mcp-smart.config.json, the client's files and the switch state as they were.
 */
export async function switchWriteRefusal(plans: readonly FilePlan[]): Promise<SmartError | undefined> {
  for (const p of plans) {
    const { target, stats } = await resolveWriteTarget(p.file);
    const refusal =
      stats && !stats.isFile() ? 'it is not a regular file' : stats ? await replaceRefusal(target, stats) : undefined;
    if (refusal !== undefined) return new SmartError('FILE_UNWRITABLE', { file: p.file, reason: refusal });
    for (const dir of new Set([dirname(resolve(p.file)), dirname(target)])) {
      const at = await existingFolder(dir);
      const writable = await access(at, constants.W_OK).then(
        () => true,
        () => false,
      );
      if (!writable)
        return new SmartError('FILE_UNWRITABLE', {
          file: p.file,
          reason: `its folder ${at} is not writable (mcp-smart writes the new copy and a .lock there); make it writable`,
        });
    }
  }
  return undefined;
}

/**
 * Applies each file's edits under its lock, refusing a file that changed since `read` (what planning saw), and
 * records the state for --undo first (so a stop half-way can still be undone).
 */
export async function applySwitch(
  ctx: AppContext,
  client: ClientId,
  plans: FilePlan[],
  read: Map<string, Buffer | undefined>,
  smartConfig: SwitchState['smartConfig'],
): Promise<void> {
  const files: SwitchState['files'] = [];
  for (const p of plans) {
    const existed = read.get(p.file) !== undefined;
    // A file created through a dangling link lands where the link points: that file is what --undo removes.
    const created = existed ? undefined : await linkTarget(p.file);
    files.push({
      file: p.file,
      syntax: p.syntax,
      existed,
      before: (read.get(p.file) ?? Buffer.alloc(0)).toString('base64'),
      edits: p.edits,
      ...(created !== undefined ? { created } : {}),
    });
  }
  const state: SwitchState = {
    format: STATE_FORMAT,
    client,
    project: ctx.io.cwd,
    appliedAt: new Date().toISOString(),
    files,
    ...(smartConfig ? { smartConfig } : {}),
  };
  await writeState(ctx, state);
  const done: SwitchState['files'] = [];
  try {
    for (const [i, p] of plans.entries()) {
      await withFileLock(p.file, async () => {
        const now = readFileBytes(p.file, '/', READ_AS.config);
        const before = read.get(p.file);
        if ((now === undefined) !== (before === undefined) || (now && before && !now.equals(before)))
          throw new SmartError('ADOPT_CHANGED', { file: p.file });
        await writeKeepingMode(p.file, switchedText(p, (now ?? Buffer.alloc(0)).toString('utf8')));
      });
      done.push(files[i]!);
    }
  } catch (e) {
    // A stop (a signal) half-way leaves the state for --undo. A refusal (another writer, a file it may not write)
    // takes back what was written and forgets the switch: a state naming files never switched made adopt say
    // "already runs mcp-smart" and --apply do nothing, and --undo reverse edits those files never had.
    if (!(e instanceof SmartError) || e.code === 'INTERRUPTED' || e.code === 'TERMINATED') throw e;
    await writeState(ctx, { ...state, files: done });
    for (const f of [...done].reverse()) await undoFile(f);
    await rm(statePath(ctx, client), { force: true });
    throw e;
  }
}

async function writeState(ctx: AppContext, state: SwitchState): Promise<void> {
  const text = `${JSON.stringify(state, null, 2)}\n`;
  await writeFileSafe(statePath(ctx, state.client), text, { mode: 0o600, verbatim: true });
}

/** Reverses one file's switch: byte for byte when nothing else changed, else the switch's edits only. */
async function undoFile(f: SwitchState['files'][number]): Promise<UndoFile> {
  return withFileLock(f.file, async () => {
    const now = readFileBytes(f.file, '/', READ_AS.config);
    const before = Buffer.from(f.before, 'base64');
    if (now === undefined) return { file: f.file, result: 'missing' };
    if (now.equals(before)) return { file: f.file, result: 'unchanged' };
    const baseText = before.toString('utf8');
    const current = now.toString('utf8');
    const baseDoc = parse(f.file, baseText);
    let text: string;
    let changedSince: string[] = [];
    if (f.syntax === 'toml') text = reverseTomlEdits(baseText, current, f.edits);
    else {
      const doc = parse(f.file, current);
      const rev = reverseJsonEdits(baseDoc, doc, f.edits);
      changedSince = rev.changedSince;
      text = applyJsonEdits(current, doc, rev.edits);
    }
    if (sameJson(parse(f.file, text), baseDoc)) {
      // Nothing else changed: the file as it was, byte for byte (a file the switch created is removed).
      if (!f.existed) return removeCreated(f);
      await writeKeepingMode(f.file, before);
      return { file: f.file, result: 'restored' };
    }
    await writeKeepingMode(f.file, text);
    return {
      file: f.file,
      result: 'restored-kept',
      changedSince: [...changedSince, ...changedKeys(baseDoc, parse(f.file, text))],
    };
  });
}

/** Where a write to `file` lands when `file` is a symbolic link, else undefined. */
async function linkTarget(file: string): Promise<string | undefined> {
  const { target } = await resolveWriteTarget(file);
  return target !== resolve(file) ? target : undefined;
}

/**
 * Removes the file the switch created. Through a symbolic link (a dotfile link that was dangling) that is the file
 * where the link points, and the link stays as the user made it; only a regular file mcp-smart may replace is
 * removed, and only the one --apply created (a link pointed elsewhere since is left alone, and said).
 */
async function removeCreated(f: SwitchState['files'][number]): Promise<UndoFile> {
  const { target, stats } = await resolveWriteTarget(f.file);
  const link = target !== resolve(f.file);
  const ours =
    stats?.isFile() === true &&
    (!link || f.created === undefined || f.created === target) &&
    (await replaceRefusal(target, stats)) === undefined;
  if (!ours)
    return {
      file: f.file,
      result: 'restored-kept',
      changedSince: [`${target} left as it is: not the file --apply created`],
    };
  await rm(target, { force: true });
  return { file: f.file, result: 'removed', ...(link ? { target } : {}) };
}

/** Top-level (and projects.<key>) paths whose value differs: what changed in a file since the switch. */
function changedKeys(a: unknown, b: unknown, prefix = ''): string[] {
  const ao = (a ?? {}) as Record<string, unknown>;
  const bo = (b ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(ao), ...Object.keys(bo)])];
  return keys.filter((k) => !sameJson(ao[k], bo[k])).map((k) => `${prefix}${k}`);
}

/** The keys of mcp-smart.config.json changed since adopt wrote it (none named when it no longer parses). */
function changedSinceWritten(smart: NonNullable<SwitchState['smartConfig']>, now: Buffer): string[] {
  try {
    return changedKeys(parse(smart.file, smart.written), parse(smart.file, now.toString('utf8')));
  } catch {
    return [];
  }
}

/** `--undo`: every file of the recorded switch put back, then mcp-smart.config.json if adopt replaced one. */
export async function undoSwitch(
  ctx: AppContext,
  client: ClientId,
): Promise<{ files: UndoFile[]; state: SwitchState }> {
  const state = readState(ctx, client);
  if (!state) throw new SmartError('ADOPT_NO_SWITCH', { client, project: ctx.io.cwd });
  const files: UndoFile[] = [];
  for (const f of [...state.files].reverse()) files.unshift(await undoFile(f));
  const smart = state.smartConfig;
  if (smart?.before !== undefined) {
    const now = readFileBytes(smart.file, '/', READ_AS.config);
    if (now === undefined) files.push({ file: smart.file, result: 'missing' });
    else if (now.toString('utf8') === smart.written) {
      await writeKeepingMode(smart.file, Buffer.from(smart.before, 'base64'));
      files.push({ file: smart.file, result: 'restored' });
    } else files.push({ file: smart.file, result: 'restored-kept', changedSince: changedSinceWritten(smart, now) });
  }
  await rm(statePath(ctx, client), { force: true });
  return { files, state };
}
