/** Reading the committed baseline (`mcp-smart.lock.json`), shared by `check` (the gate) and `audit` (what went missing). */
import { parseBaseline, type Baseline } from '../../core/budget/index.js';
import { SmartError } from '../../process/errors.js';
import { READ_AS, parseJsonText, readTextFile } from '../../process/read-file.js';

/** The format a baseline names (`"format": "mcp-smart/baseline@1"`): a file holding it is ours, even when broken. */
const BASELINE_MARK = 'mcp-smart/baseline@';

/** What an unreadable baseline's error says to do: `check --update` only replaces a file of ours. */
const advice = (text: string): string =>
  text.includes(BASELINE_MARK)
    ? 'Recreate it with: mcp-smart check --update'
    : 'It is not an mcp-smart baseline: check --update replaces only a baseline. Move it away, or point --baseline (or the config\'s "baseline") at the baseline file';

/** The baseline at `file` (relative to `cwd`); undefined when there is none. An invalid one is exit 2 naming the key. */
export async function readBaselineFile(file: string, cwd: string): Promise<Baseline | undefined> {
  const read = await readBaselineForUpdate(file, cwd, false);
  return read.baseline;
}

/**
 * The baseline `check --update` is about to replace. With `replaceBroken`, one of ours that cannot be read (a merge
 * conflict left in it, a cut-off write) is no error: `broken` says why, and the update writes the file anew. A file
 * that is not ours (no baseline format in it) is refused either way: the update would replace someone's file.
 */
export async function readBaselineForUpdate(
  file: string,
  cwd: string,
  replaceBroken = true,
): Promise<{ baseline?: Baseline; broken?: string }> {
  const text = await readTextFile(file, cwd, READ_AS.baseline);
  if (text === undefined) return {};
  let doc: unknown;
  try {
    doc = parseJsonText(text, file);
  } catch (e) {
    if (!(e instanceof SmartError)) throw e;
    if (replaceBroken && text.includes(BASELINE_MARK)) return { broken: e.message };
    const reason = `${String(e.details.reason)}. ${advice(text)}`;
    throw new SmartError('FILE_PARSE', { file, kind: 'JSON', reason }, { cause: e });
  }
  const parsed = parseBaseline(doc);
  if (parsed.ok) return { baseline: parsed.value };
  if (replaceBroken && text.includes(BASELINE_MARK)) return { broken: `${file}: ${parsed.path}: ${parsed.reason}` };
  throw new SmartError('CONFIG_INVALID', { file, key: parsed.path, reason: `${parsed.reason}. ${advice(text)}` });
}
