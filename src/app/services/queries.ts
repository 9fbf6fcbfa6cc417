/** `--queries <file>` of discover and check: labelled intents read once, the same way for both. */
import { parseLabelledIntents, type LabelledIntent } from '../../core/discover/index.js';
import { capIntent, cutIntentNote } from '../../core/intent-limit.js';
import { SmartError } from '../../process/errors.js';
import { READ_AS, readTextFile } from '../../process/read-file.js';

/**
 * Reads and parses the file; a missing file, a bad line or a file with no intent is an error naming the file. An
 * intent longer than MAX_INTENT_CHARS is ranked by its first characters, and `warn` is told which ones were cut.
 */
export async function readLabelledIntents(
  file: string,
  cwd: string,
  warn: (text: string) => void = () => undefined,
): Promise<LabelledIntent[]> {
  const text = await readTextFile(file, cwd, READ_AS.intents);
  if (text === undefined) throw new SmartError('FILE_NOT_FOUND', { file, hint: 'Check the path given to --queries.' });
  const cases = parseLabelledIntents(text, file);
  if (cases.length === 0)
    throw new SmartError('FILE_PARSE', {
      file,
      kind: 'labelled intents (.jsonl)',
      reason: 'it holds no labelled intent (one {"intent": "...", "expected": ["server.tool"]} per line)',
    });
  return cases.map((c, i) => {
    const capped = capIntent(c.intent);
    if (capped.cutFrom === undefined) return c;
    warn(`${cutIntentNote(`intent ${i + 1} in ${file}`, capped.cutFrom)}.`);
    return { ...c, intent: capped.text };
  });
}
