/** Reading the committed baseline (`mcp-smart.lock.json`), shared by `check` (the gate) and `audit` (what went missing). */
import { parseBaseline, type Baseline } from '../../core/budget/index.js';
import { SmartError } from '../../process/errors.js';
import { readJsonFile } from '../../process/read-file.js';

/** The baseline at `file` (relative to `cwd`); undefined when there is none. An invalid one is exit 2 naming the key. */
export async function readBaselineFile(file: string, cwd: string): Promise<Baseline | undefined> {
  const doc = await readJsonFile(file, cwd);
  if (doc === undefined) return undefined;
  const parsed = parseBaseline(doc);
  if (!parsed.ok)
    throw new SmartError('CONFIG_INVALID', {
      file,
      key: parsed.path,
      reason: `${parsed.reason}. Recreate it with: mcp-smart check --update`,
    });
  return parsed.value;
}
