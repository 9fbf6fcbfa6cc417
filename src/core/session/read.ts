/** The IO edge of replay: finds recordings under the given paths and reads each with its detected format. */
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { SmartError } from '../../process/errors.js';
import type { ReadProblem, RecordedSession, SessionFormat } from './model.js';
import { detectSessionFormat, readSessionText } from './readers/index.js';

export interface SessionFiles {
  sessions: RecordedSession[];
  problems: ReadProblem[];
  /** Files read, by format. */
  files: { file: string; format: SessionFormat }[];
  /** Files found in folders whose content was not a recording (replay names them in one warning). */
  skipped: string[];
}

const SKIP_DIRS = new Set(['node_modules', '.git']);
/** Files Cline and Roo write beside api_conversation_history.json in every task folder (skipped, expected). */
export const TASK_COMPANIONS: ReadonlySet<string> = new Set(['ui_messages.json', 'task_metadata.json']);

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) await walk(full, out);
    } else if (e.isFile() && /\.jsonl?$/i.test(e.name)) {
      out.push(full);
    }
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
    if (size <= max) return { text: await handle.readFile('utf8'), size };
    const buf = Buffer.alloc(max);
    const { bytesRead } = await handle.read(buf, 0, max, 0);
    const end = buf.lastIndexOf(0x0a, bytesRead - 1);
    return { text: buf.subarray(0, end >= 0 ? end + 1 : bytesRead).toString('utf8'), size };
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

/** Reads every recording under `paths` (files or folders, recursively). A missing path is a usage error. */
export async function readSessionFiles(paths: string[], cwd: string): Promise<SessionFiles> {
  const result: SessionFiles = { sessions: [], problems: [], files: [], skipped: [] };
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
    if (st.isDirectory()) await walk(abs, candidates);
    else if (st.isFile()) candidates.push(abs);
    else
      result.problems.push({
        file: abs,
        line: 0,
        message: 'not a regular file (a device, a pipe or a socket); skipped',
      });
    for (const file of candidates) {
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
        result.problems.push({ file, line: 0, message: `cannot read: ${e instanceof Error ? e.message : String(e)}` });
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
      const read = readSessionText(format, text, file, format === 'cline' ? clineOptions(file) : {});
      result.files.push({ file, format });
      result.sessions.push(...read.sessions);
      result.problems.push(...read.problems);
    }
  }
  return result;
}
