/** Writing our own files safely: a temp file beside the target, then rename over it. */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

let counter = 0;

/** Writes `data` to `file` atomically: readers see the old or the new content, never half of it. */
export async function writeFileAtomic(file: string, data: string): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${++counter}.tmp`);
  try {
    await writeFile(tmp, data, { encoding: 'utf8', mode: 0o600 });
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
