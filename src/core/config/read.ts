/** The IO edge of config loading: reads a file's text. Parsing is pure and lives beside it. */
import { readFile } from 'node:fs/promises';
import { SmartError, errorText } from '../../errors.js';

/** The file's text, or undefined when there is no file. Other failures are FILE_UNREADABLE. */
export async function readConfigText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new SmartError('FILE_UNREADABLE', { file, reason: errorText(e) }, { cause: e });
  }
}
