/** The IO edge of replay: finds recordings under the given paths and reads each with its detected format. */
import type { Dirent } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { SmartError } from '../../process/errors.js';
import { stripBom } from '../../process/read-file.js';
import { dateUndatedTurns, type ReadProblem, type RecordedSession, type SessionFormat } from './model.js';
import { detectSessionFormat, readSessionText } from './readers/index.js';
import { mergeSessionCopies } from './turn-keys.js';

export interface SessionFiles {
  sessions: RecordedSession[];
  problems: ReadProblem[];
  /** Files read, by format. */
  files: { file: string; format: SessionFormat }[];
  /** Files found in folders whose content was not a recording (replay names them in one warning). */
  skipped: string[];
  /** Files and folders that could not be read. */
  unreadable: UnreadablePath[];
  /** MCP tool calls recorded before any user turn of their session: no intent to score them against. */
  callsWithoutTurn: number;
  /** Said once on stderr, nothing skipped: a file given twice, turns dated from their neighbours. */
  notes: string[];
}

const SKIP_DIRS = new Set(['node_modules', '.git']);
/** Files Cline and Roo write beside api_conversation_history.json in every task folder (skipped, expected). */
export const TASK_COMPANIONS: ReadonlySet<string> = new Set(['ui_messages.json', 'task_metadata.json']);

const RECORDING_NAME = /\.jsonl?$/i;

/** A file or folder that could not be read (no permission, an I/O error): skipped and named, not a malformed line. */
export interface UnreadablePath {
  file: string;
  message: string;
}

function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES' || code === 'EPERM') return `no permission, ${code}: give read access or leave it out`;
  return code ?? (e instanceof Error ? e.message : String(e));
}

/**
 * Recordings under `dir`, links to files and folders followed (a link was skipped without a word). `seen` holds
 * the real path of every folder walked, so a link back to a parent is walked once. A folder that cannot be read
 * is named in `found.unreadable` and skipped (it stopped the whole replay with a stack trace).
 */
async function walk(
  dir: string,
  found: { out: string[]; problems: ReadProblem[]; unreadable: UnreadablePath[] },
  seen: Set<string>,
): Promise<void> {
  let entries: Dirent[];
  try {
    const real = await realpath(dir);
    if (seen.has(real)) return;
    seen.add(real);
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    found.unreadable.push({ file: dir, message: `cannot read this folder (${reason(e)}); skipped` });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const full = join(dir, e.name);
    let kind: 'dir' | 'file' | undefined = e.isDirectory() ? 'dir' : e.isFile() ? 'file' : undefined;
    if (e.isSymbolicLink()) {
      let failure: unknown;
      const target = await stat(full).catch((err: unknown) => void (failure = err));
      kind = target?.isDirectory() ? 'dir' : target?.isFile() ? 'file' : undefined;
      if (!target && RECORDING_NAME.test(e.name))
        found.problems.push({
          file: full,
          line: 0,
          message:
            (failure as NodeJS.ErrnoException | undefined)?.code === 'ELOOP'
              ? 'is a symbolic link that loops (to itself, or through other links back to it); skipped'
              : 'is a symbolic link to nothing; skipped',
        });
    }
    if (kind === 'dir' && !SKIP_DIRS.has(e.name)) await walk(full, found, seen);
    else if (kind === 'file' && RECORDING_NAME.test(e.name)) found.out.push(full);
  }
}

/** Cline names each task folder after the time the task started (ms since the epoch). */
function clineOptions(file: string): { sessionId: string; baseTime?: number } {
  const dir = basename(dirname(file));
  const id = basename(file) === 'api_conversation_history.json' ? dir : basename(file).replace(/\.json$/i, '');
  return /^\d{12,14}$/.test(dir) ? { sessionId: id, baseTime: Number(dir) } : { sessionId: id };
}

/** The most read from one recording: far above a real session, far below what would exhaust memory. */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;

/** The file's text up to `max` bytes, cut after its last whole line; `size` says how big the file really is. */
export async function readCapped(file: string, max = MAX_RECORDING_BYTES): Promise<{ text: string; size: number }> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    // A byte order mark (Windows editors write one) is not part of the JSON.
    if (size <= max) return { text: stripBom(await handle.readFile('utf8')), size };
    const buf = Buffer.alloc(max);
    const { bytesRead } = await handle.read(buf, 0, max, 0);
    const end = buf.lastIndexOf(0x0a, bytesRead - 1);
    return { text: stripBom(buf.subarray(0, end >= 0 ? end + 1 : bytesRead).toString('utf8')), size };
  } finally {
    await handle.close();
  }
}

/** NUL bytes, or many undecodable bytes, in the first 8 KB: not text, so not a recording. */
function isBinary(text: string): boolean {
  const head = text.slice(0, 8192);
  if (head.includes('\u0000')) return true;
  let bad = 0;
  for (const ch of head) if (ch === '\uFFFD') bad++;
  return head.length > 0 && bad / head.length > 0.1;
}

/**
 * Dates a file's undated turns from their neighbours (dateUndatedTurns) and says so once for the file. A session
 * with no time at all keeps none (learning dates it as the newest dated case); only labelled intents, whose `time`
 * is optional, are left unsaid.
 */
function dateTurns(file: string, format: SessionFormat, sessions: RecordedSession[]): string | undefined {
  const withCalls = (turns: RecordedSession['turns']) => turns.filter((t) => t.calls.length > 0);
  const dated = withCalls(sessions.flatMap(dateUndatedTurns));
  const turns = (n: number): string => (n === 1 ? '1 turn has' : `${n} turns have`);
  if (dated.length > 0)
    return `${file}:${Math.min(...dated.map((t) => t.line))}: ${turns(dated.length)} no readable timestamp; dated like the nearest dated turn of the session`;
  const none = withCalls(sessions.flatMap((s) => s.turns)).filter((t) => t.time === undefined).length;
  if (none > 0 && format !== 'intents')
    return `${file}: ${turns(none)} no readable timestamp; learned as of the newest dated recording (now when none is dated)`;
  return undefined;
}

/** Reads every recording under `paths` (files or folders, recursively). A missing path is a usage error. */
export async function readSessionFiles(paths: string[], cwd: string): Promise<SessionFiles> {
  const result: SessionFiles = {
    sessions: [],
    problems: [],
    files: [],
    skipped: [],
    unreadable: [],
    callsWithoutTurn: 0,
    notes: [],
  };
  // Real path → the path it was first found by: a file given twice (or reached by a link) is read once.
  const firstPathOf = new Map<string, string>();
  const twice: string[] = [];
  for (const p of paths) {
    const abs = resolve(cwd, p);
    const st = await stat(abs).catch((e: unknown) => {
      throw new SmartError(
        'FILE_NOT_FOUND',
        { file: p, hint: 'Pass transcript files or folders that hold them.' },
        { cause: e },
      );
    });
    const candidates: string[] = [];
    if (st.isDirectory()) await walk(abs, { out: candidates, ...result }, new Set());
    else if (st.isFile()) candidates.push(abs);
    else
      result.problems.push({
        file: abs,
        line: 0,
        message: 'not a regular file (a device, a pipe or a socket); skipped',
      });
    for (const file of candidates) {
      const real = await realpath(file).catch(() => file);
      const first = firstPathOf.get(real);
      if (first !== undefined) {
        twice.push(first === file ? file : `${file} (the same file as ${first})`);
        continue;
      }
      firstPathOf.set(real, file);
      let text: string;
      try {
        const read = await readCapped(file);
        text = read.text;
        if (read.size > MAX_RECORDING_BYTES)
          result.problems.push({
            file,
            line: 0,
            message: `is ${Math.round(read.size / 1048576)} MB; only its first ${MAX_RECORDING_BYTES / 1048576} MB (whole lines) were read`,
          });
      } catch (e) {
        result.unreadable.push({ file, message: `cannot read this file (${reason(e)}); skipped` });
        continue;
      }
      if (isBinary(text)) {
        result.problems.push({ file, line: 0, message: 'is a binary file, not a recording; skipped' });
        continue;
      }
      const format = detectSessionFormat(text, file);
      if (!format) {
        if (st.isDirectory()) result.skipped.push(file);
        else
          result.problems.push({
            file,
            line: 1,
            message: 'not a recognised recording (Claude Code transcript, Cline/Roo history, or labelled intents)',
          });
        continue;
      }
      // Labelled intents without a `session` are the file's: named by its real path, whatever path reached it.
      const options = format === 'cline' ? clineOptions(file) : format === 'intents' ? { sessionId: real } : {};
      const recording = readSessionText(format, text, file, options);
      result.files.push({ file, format });
      result.sessions.push(...recording.sessions);
      result.problems.push(...recording.problems);
      result.callsWithoutTurn += recording.callsWithoutTurn ?? 0;
      const undated = dateTurns(file, format, recording.sessions);
      if (undated !== undefined) result.notes.push(undated);
    }
  }
  const merged = mergeSessionCopies(result.sessions);
  result.sessions = merged.sessions;
  for (const c of merged.copies.slice(0, 5))
    result.notes.push(
      `session ${c.id} is recorded in ${c.files.length} files (${c.files.join(', ')}); each of its turns is replayed once`,
    );
  if (merged.copies.length > 5)
    result.notes.push(`… and ${merged.copies.length - 5} more sessions recorded in several files`);
  if (twice.length > 0)
    result.notes.push(
      `${twice.length === 1 ? '1 file was' : `${twice.length} files were`} given more than once and read once: ${twice.slice(0, 5).join(', ')}${twice.length > 5 ? ', …' : ''}`,
    );
  return result;
}
