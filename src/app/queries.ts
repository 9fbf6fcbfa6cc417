/** `--queries <file>` of discover and check: labelled intents read once, the same way for both. */
import { parseLabelledIntents, type LabelledIntent } from '../core/discover/index.js';
import { SmartError } from '../errors.js';
import { readTextFile } from '../read-file.js';

/** Reads and parses the file; a missing file, a bad line or a file with no intent is an error naming the file. */
export async function readLabelledIntents(file: string, cwd: string): Promise<LabelledIntent[]> {
  const text = await readTextFile(file, cwd);
  if (text === undefined) throw new SmartError('FILE_NOT_FOUND', { file, hint: 'Check the path given to --queries.' });
  const cases = parseLabelledIntents(text, file);
  if (cases.length === 0)
    throw new SmartError('FILE_PARSE', {
      file,
      kind: 'labelled intents (.jsonl)',
      reason: 'it holds no labelled intent (one {"intent": "...", "expected": ["server.tool"]} per line)',
    });
  return cases;
}
